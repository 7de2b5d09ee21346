// A question in a given conversation (functions/conversation-message.ts; spec endpoint 5).

import { ConversationMessageInput } from '#lib/answer/inputs.ts';
import type { Route } from '#lib/http/route.ts';
import { answering, answeringAccess } from './common.ts';
import { ChatAnswerResponse } from './schemas.ts';

export const sendConversationMessage = {
  method: 'POST',
  path: '/api/v1/chat/{conversation_id}/message',
  functionName: 'conversationMessage',
  operationId: 'sendConversationMessage',
  tag: 'Answers',
  summary: 'Send a message to a given conversation',
  description:
    'Answers the question in the conversation. An id that does not exist yet creates the ' +
    "conversation in the caller's scope, which needs `database_id`; a conversation keeps the " +
    'database and personality of its first message.',
  access: answeringAccess,
  scope: 'optional',
  tenant: true,
  input: ConversationMessageInput,
  responses: [{ status: 200, schema: ChatAnswerResponse, description: 'The answer' }],
  errors: [...answering, 'PAYLOAD_TOO_LARGE'],
  limits: 'answering',
} satisfies Route;
