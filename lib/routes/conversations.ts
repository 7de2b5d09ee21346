// The scope's conversations (functions/conversations.ts; spec endpoint 1).

import { ListConversationsInput, scopeHistoryAccess } from '#lib/conversations/inputs.ts';
import type { Route } from '#lib/http/route.ts';
import { conversationScope, history } from './common.ts';
import { ConversationsResponse } from './schemas.ts';

export const listConversations = {
  method: 'GET',
  path: '/api/v1/chat/conversations',
  functionName: 'conversations',
  operationId: 'listConversations',
  tag: 'Conversations',
  summary: 'List conversations',
  description: `The scope's conversations, newest activity first, in cursor pages. ${conversationScope}`,
  access: scopeHistoryAccess,
  scope: 'required',
  input: ListConversationsInput,
  responses: [{ status: 200, schema: ConversationsResponse, description: 'A page of conversations' }],
  errors: history,
  limits: 'standard',
} satisfies Route;
