// Listing messages (lib/routes/history.ts): of one conversation (conversation_id) or of the
// caller's whole scope, newest first or oldest first (order=asc), in signed cursor pages (spec endpoint 2).

import { readMessages } from '#lib/conversations/history.ts';
import { api } from '#lib/http/api.ts';
import { historyCaller } from '#lib/http/middleware/scope.ts';
import { ok } from '#lib/http/response.ts';
import * as routes from '#lib/routes/history.ts';
import type { MessagesPage } from '#lib/routes/schemas.ts';

export const handler = api(routes.listMessages).handler(async (_event, context) => {
  const { conversation_id: conversationId, ...page } = context.input.query;
  return ok<MessagesPage>(await readMessages(historyCaller(context), { conversationId, ...page }));
});
