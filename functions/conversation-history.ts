// One conversation's history (lib/routes/conversation-history.ts): the whole conversation, oldest
// first (spec endpoint 3).

import { readConversationHistory } from '#lib/conversations/history.ts';
import { api } from '#lib/http/api.ts';
import { historyCaller } from '#lib/http/middleware/scope.ts';
import { ok } from '#lib/http/response.ts';
import * as routes from '#lib/routes/conversation-history.ts';
import type { ConversationHistory } from '#lib/routes/schemas.ts';

export const handler = api(routes.getConversationHistory).handler(async (_event, context) =>
  ok<ConversationHistory>(
    await readConversationHistory(historyCaller(context), context.input.path.conversation_id),
  ),
);
