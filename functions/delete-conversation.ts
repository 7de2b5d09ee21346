// Deleting a conversation (lib/routes/delete-conversation.ts): the conversation and every message
// of it (spec endpoint 4). A very long conversation that cannot be deleted within one request answers 503
// with Retry-After before the function times out; repeating the request finishes the delete.

import { deleteConversation } from '#lib/conversations/history.ts';
import { api } from '#lib/http/api.ts';
import { historyCaller } from '#lib/http/middleware/scope.ts';
import { ok } from '#lib/http/response.ts';
import * as routes from '#lib/routes/delete-conversation.ts';
import type { DeleteResult } from '#lib/routes/schemas.ts';

export const handler = api(routes.deleteConversation).handler(async (_event, context) =>
  ok<DeleteResult>(
    await deleteConversation(historyCaller(context), context.input.path.conversation_id, {
      remainingMs: () => context.getRemainingTimeInMillis(),
    }),
  ),
);
