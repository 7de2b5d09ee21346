// The one onError of the chain: turns any error into the envelope of docs/design.md "Errors".
// Client mistakes are logged at info; anything else at error with its stack, never in the body.
import type { MiddlewareObj, Request } from '@middy/core';
import { errorEnvelope as envelopeOf, toServiceError } from '#lib/errors.ts';
import { logger } from '#lib/log.ts';
import { json } from '../response.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

export const errorEnvelope = (): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const errorEnvelopeOnError = (request: Request<ApiEvent, ApiResult, Error, ApiContext>): void => {
    if (request.response !== undefined) return;
    const error = toServiceError(request.error);
    if (error.status >= 500) {
      logger.error('request failed', {
        code: error.kind,
        error: (error.cause as Error | undefined) ?? error,
      });
    } else {
      logger.info('request rejected', { code: error.kind, status: error.status, reason: error.message });
    }
    const traceId = request.context.traceId ?? 'req_unknown';
    request.response = json(error.status, envelopeOf(error, traceId), error.headers);
  };
  return { onError: errorEnvelopeOnError };
};
