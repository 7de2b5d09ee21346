// A message to a given conversation (lib/routes/conversation-message.ts): answers the question in
// it (spec endpoint 5). The conversation id may be new: it is then created in the caller's scope, which
// needs database_id (docs/design.md "Unknown ids"). Counts toward the message limits (30 per minute,
// 200 per hour) and holds a concurrency lease while it answers.
import { sendChatMessage } from '#lib/answer/chat.ts';
import { answerResponse } from '#lib/http/answer-response.ts';
import { api } from '#lib/http/api.ts';
import { uuidv7 } from '#lib/ids.ts';
import * as routes from '#lib/routes/conversation-message.ts';

export const handler = api(routes.sendConversationMessage).handler(async (_event, context) => {
  const { path, body } = context.input;
  const outcome = await sendChatMessage({
    principal: context.principal,
    scopeId: context.scopeId,
    tenantHeader: context.headers['x-tenant-id'],
    conversationId: path.conversation_id,
    newConversationId: uuidv7,
    question: body.message,
    databaseId: body.database_id,
    personalityId: body.personality_id,
    remainingMs: () => context.getRemainingTimeInMillis(),
    lease: context.rateLimit?.lease,
  });
  return answerResponse(outcome);
});
