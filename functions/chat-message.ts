// The chat message, both variants on one route (lib/routes/chat-message.ts; docs/design.md "The two POST
// variants"): a body with `role` appends to history (spec endpoint 7, 201); a body with `message` is the chat
// variant (spec endpoint 6, 200), which answers the question in the conversation named by `conversation_id`
// or `session_id`, or in a new one. The chain admits every credential the chat variant takes; the append
// variant then applies the history rules (sk_ with custom_api_access or a portal JWT, and X-Scope-Id). Only
// the chat variant counts toward the message limits and holds a concurrency lease (its route's limits,
// chatMessageLimits, read the raw body).
import { sendChatMessage } from '#lib/answer/chat.ts';
import { ChatMessageInput, conversationIdOf } from '#lib/answer/inputs.ts';
import { authorise } from '#lib/auth/principal.ts';
import { appendToHistory } from '#lib/conversations/history.ts';
import { AppendInput, historyAccess, messageVariantOf } from '#lib/conversations/inputs.ts';
import { answerResponse } from '#lib/http/answer-response.ts';
import { api } from '#lib/http/api.ts';
import { historyCaller, requireScopeId } from '#lib/http/middleware/scope.ts';
import { validateInput } from '#lib/http/middleware/validate.ts';
import { ok } from '#lib/http/response.ts';
import { uuidv7 } from '#lib/ids.ts';
import * as routes from '#lib/routes/chat-message.ts';
import type { AppendResult } from '#lib/routes/schemas.ts';

export const handler = api(routes.sendMessage).handler(async (_event, context) => {
  const { principal } = context;
  if (messageVariantOf(context.body) === 'chat') {
    const { body } = validateInput(ChatMessageInput, { body: context.body });
    const outcome = await sendChatMessage({
      principal,
      scopeId: context.scopeId,
      tenantHeader: context.headers['x-tenant-id'],
      conversationId: conversationIdOf(body),
      newConversationId: uuidv7,
      question: body.message,
      databaseId: body.database_id,
      personalityId: body.personality_id,
      remainingMs: () => context.getRemainingTimeInMillis(),
      lease: context.rateLimit?.lease,
    });
    return answerResponse(outcome);
  }
  authorise(principal, historyAccess, context.headers.origin);
  const scopeId = requireScopeId(context.scopeId);
  const { body } = validateInput(AppendInput, { body: context.body });
  const appended = await appendToHistory(
    { ...historyCaller(context), scopeId },
    { conversationId: body.conversation_id, role: body.role, content: body.content, metadata: body.metadata },
  );
  return ok<AppendResult>(appended, { status: 201, message: 'Message appended' });
});
