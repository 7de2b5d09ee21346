// Rating an answer (lib/routes/message-feedback.ts): a rating of one answer, with the credentials
// that read the conversation (lib/conversations/feedback.ts).

import { rateAnswer } from '#lib/conversations/feedback.ts';
import { api } from '#lib/http/api.ts';
import { historyCaller } from '#lib/http/middleware/scope.ts';
import { ok } from '#lib/http/response.ts';
import * as routes from '#lib/routes/message-feedback.ts';
import type { FeedbackResult } from '#lib/routes/schemas.ts';

export const handler = api(routes.rateAnswer).handler(async (_event, context) =>
  ok<FeedbackResult>(
    await rateAnswer(
      historyCaller(context),
      context.input.path.conversation_id,
      context.input.path.message_id,
      context.input.body,
    ),
    { status: 201 },
  ),
);
