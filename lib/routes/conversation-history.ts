// One conversation, oldest first (functions/conversation-history.ts; spec endpoint 3).

import { ConversationPathInput, scopeHistoryAccess } from '#lib/conversations/inputs.ts';
import type { Route } from '#lib/http/route.ts';
import { conversationScope, history } from './common.ts';
import { ConversationHistoryResponse } from './schemas.ts';

export const getConversationHistory = {
  method: 'GET',
  path: '/api/v1/chat/{conversation_id}/history',
  functionName: 'conversationHistory',
  operationId: 'getConversationHistory',
  tag: 'Conversations',
  summary: 'Get the history of one conversation',
  description: `The whole conversation, oldest first. ${conversationScope}`,
  access: scopeHistoryAccess,
  scope: 'required',
  input: ConversationPathInput,
  responses: [{ status: 200, schema: ConversationHistoryResponse, description: 'The conversation' }],
  errors: history,
  limits: 'standard',
} satisfies Route;
