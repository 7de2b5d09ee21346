// Header names are case-insensitive; API Gateway passes them as sent. This gives the rest of
// the chain one lower-case map.
import type { MiddlewareObj, Request } from '@middy/core';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

export const normaliseHeaders = (
  event: Pick<ApiEvent, 'headers' | 'multiValueHeaders'>,
): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(event.multiValueHeaders ?? {})) {
    if (values && values.length > 0) headers[name.toLowerCase()] = values.join(', ');
  }
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    const key = name.toLowerCase();
    if (value !== undefined && headers[key] === undefined) headers[key] = value;
  }
  return headers;
};

export const headerNormaliser = (): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const headerNormaliserBefore = (request: Request<ApiEvent, ApiResult, Error, ApiContext>): void => {
    request.context.headers = normaliseHeaders(request.event);
  };
  return { before: headerNormaliserBefore };
};
