// Deleting a conversation (functions/delete-conversation.ts; spec endpoint 4).

import { ConversationPathInput, deleteConversationAccess } from '#lib/conversations/inputs.ts';
import type { Route } from '#lib/http/route.ts';
import { conversationScope, history } from './common.ts';
import { DeleteResponse } from './schemas.ts';

export const deleteConversation = {
  method: 'DELETE',
  path: '/api/v1/chat/{conversation_id}',
  functionName: 'deleteConversation',
  operationId: 'deleteConversation',
  tag: 'Conversations',
  summary: 'Delete a conversation',
  description:
    'Deletes the conversation and every message of it. A very long conversation that cannot be ' +
    'deleted within one request answers 503 with Retry-After; repeating the request finishes ' +
    'the delete. A portal token needs the owner or admin role (a member gets 403 FORBIDDEN). ' +
    conversationScope,
  access: deleteConversationAccess,
  scope: 'required',
  input: ConversationPathInput,
  responses: [{ status: 200, schema: DeleteResponse, description: 'Deleted' }],
  errors: history,
  limits: 'standard',
} satisfies Route;
