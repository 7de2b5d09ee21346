// POST /api/v1/chat/{conversation_id}/messages/{message_id}/feedback: a rating of one answer,
// with the credentials that read the conversation (lib/conversations/feedback.ts).

import { rateAnswer } from '#lib/conversations/feedback.ts';
import { FeedbackInput, scopeHistoryAccess } from '#lib/conversations/inputs.ts';
import { api } from '#lib/http/api.ts';
import { historyCaller } from '#lib/http/middleware/scope.ts';
import { ok } from '#lib/http/response.ts';
import type { FeedbackResult } from '#lib/openapi/schemas.ts';

export const handler = api({
  access: scopeHistoryAccess,
  scope: 'required',
  body: true,
  input: FeedbackInput,
}).handler(async (_event, context) =>
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
