// POST /api/v1/chat/message, both variants on one route (DESIGN.md "The two POST variants"): a
// body with `role` appends to history (spec endpoint 7, 201), a body with `message` is the chat
// variant (spec endpoint 6), which this deployment does not offer yet (400). The chain admits
// every credential the chat variant will; the append variant then applies the history rules:
// sk_ with custom_api_access or a portal JWT, and X-Scope-Id.
import { authorise } from '#lib/auth/principal.ts';
import { appendToHistory } from '#lib/conversations/history.ts';
import {
  AppendInput,
  chatVariantUnavailable,
  historyAccess,
  messageVariantOf,
} from '#lib/conversations/inputs.ts';
import { api } from '#lib/http/api.ts';
import { requireScopeId } from '#lib/http/middleware/scope.ts';
import { validateInput } from '#lib/http/middleware/validate.ts';
import { ok } from '#lib/http/response.ts';

export const handler = api({
  access: { credentials: ['sk', 'pk', 'jwt'] },
  scope: 'optional',
  body: true,
}).handler(async (_event, context) => {
  if (messageVariantOf(context.body) === 'chat') throw chatVariantUnavailable();
  const { principal } = context;
  authorise(principal, historyAccess, context.headers.origin);
  const scopeId = requireScopeId(context.scopeId);
  const { body } = validateInput(AppendInput, { body: context.body });
  const appended = await appendToHistory(
    { organizationId: principal.organizationId, scopeId, userId: principal.userId },
    { conversationId: body.conversation_id, role: body.role, content: body.content, metadata: body.metadata },
  );
  return ok(appended, { status: 201, message: 'Message appended' });
});
