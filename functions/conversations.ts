// Listing conversations (lib/routes/conversations.ts): the caller's scope's conversations, newest
// activity first, in signed cursor pages (spec endpoint 1).

import { listConversations } from '#lib/conversations/history.ts';
import { api } from '#lib/http/api.ts';
import { historyCaller } from '#lib/http/middleware/scope.ts';
import { ok } from '#lib/http/response.ts';
import * as routes from '#lib/routes/conversations.ts';
import type { ConversationsPage } from '#lib/routes/schemas.ts';

export const handler = api(routes.listConversations).handler(async (_event, context) =>
  ok<ConversationsPage>(await listConversations(historyCaller(context), context.input.query)),
);
