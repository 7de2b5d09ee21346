// The HTTP response of an answer (spec endpoints 5 and 6): `{success: true, data: ChatAnswer}`
// with a `Server-Timing` header giving the split of the request's time (lib/observability/timing.ts).

import type { AnswerOutcome } from '#lib/answer/request.ts';
import { ok } from '#lib/http/response.ts';
import type { ApiResult } from '#lib/http/types.ts';
import { logger } from '#lib/log.ts';

export const answerResponse = (outcome: AnswerOutcome): ApiResult => {
  const { answer, timings } = outcome;
  logger.debug('answered', {
    conversationId: answer.conversation_id,
    queryType: answer.query_type,
    rowCount: answer.row_count,
    timings: timings.toJSON(),
  });
  const response = ok(answer);
  return { ...response, headers: { ...response.headers, 'Server-Timing': timings.header() } };
};
