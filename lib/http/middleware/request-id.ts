// First in every chain: names the request (`req_<API Gateway request id>`), tags every log
// line with it, and puts `X-Request-ID` on every response, errors included.
import { randomUUID } from 'node:crypto';
import type { MiddlewareObj, Request } from '@middy/core';
import { logger } from '#lib/log.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

type ApiRequest = Request<ApiEvent, ApiResult, Error, ApiContext>;

export const traceIdOf = (event: Pick<ApiEvent, 'requestContext'>): string =>
  `req_${event.requestContext?.requestId ?? randomUUID()}`;

export const requestId = (): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const requestIdBefore = (request: ApiRequest): void => {
    request.context.traceId = traceIdOf(request.event);
    logger.appendKeys({ trace_id: request.context.traceId });
  };
  const requestIdAfter = (request: ApiRequest): void => {
    if (request.response) {
      request.response.headers = { ...request.response.headers, 'X-Request-ID': request.context.traceId };
    }
    logger.removeKeys(['trace_id']);
  };
  return { before: requestIdBefore, after: requestIdAfter, onError: requestIdAfter };
};
