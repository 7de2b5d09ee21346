// Messages of a conversation or of the whole scope (functions/history.ts; spec endpoint 2).

import { HistoryInput, scopeHistoryAccess } from '#lib/conversations/inputs.ts';
import type { Route } from '#lib/http/route.ts';
import { conversationScope, history } from './common.ts';
import { MessagesResponse } from './schemas.ts';

export const listMessages = {
  method: 'GET',
  path: '/api/v1/chat/history',
  functionName: 'history',
  operationId: 'listMessages',
  tag: 'Conversations',
  summary: 'Get messages',
  description:
    'Messages of one conversation (`conversation_id`) or of the whole scope, newest first ' +
    `(\`order=asc\`: oldest first), in cursor pages. ${conversationScope}`,
  access: scopeHistoryAccess,
  scope: 'required',
  input: HistoryInput,
  responses: [{ status: 200, schema: MessagesResponse, description: 'A page of messages' }],
  errors: history,
  limits: 'standard',
} satisfies Route;
