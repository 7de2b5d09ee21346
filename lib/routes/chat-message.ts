// The chat message and the history append, two variants on one route (functions/chat-message.ts;
// spec endpoints 6 and 7).

import { ChatMessageInput, chatMessageLimits } from '#lib/answer/inputs.ts';
import { AppendInput } from '#lib/conversations/inputs.ts';
import type { Route } from '#lib/http/route.ts';
import { answering, answeringAccess } from './common.ts';
import { AppendResponse, ChatAnswerResponse } from './schemas.ts';

export const sendMessage = {
  method: 'POST',
  path: '/api/v1/chat/message',
  functionName: 'chatMessage',
  operationId: 'sendMessage',
  tag: 'Answers',
  summary: 'Send a chat message, or append a message to history',
  description:
    'Two variants on one route, told apart by the body. A body with `message` is the chat ' +
    'variant (200): it answers the question in the conversation named by `conversation_id` or ' +
    '`session_id` (a session is a conversation), or in a new one, which needs `database_id`; ' +
    'it counts toward the message limits. A body with `role` appends a message to history ' +
    '(201) without answering: the rules of the history endpoints apply (an sk_ key with custom ' +
    'API access or a portal JWT, and X-Scope-Id); an id that does not exist yet creates the ' +
    'conversation. A body with both `message` and `role`, or neither, is 400.',
  access: answeringAccess,
  scope: 'optional',
  tenant: true,
  bodyVariants: [ChatMessageInput.entries.body, AppendInput.entries.body],
  responses: [
    { status: 200, schema: ChatAnswerResponse, description: 'The answer (chat variant)' },
    { status: 201, schema: AppendResponse, description: 'The message is appended (append variant)' },
  ],
  errors: [...answering, 'FEATURE_NOT_AVAILABLE', 'SCOPE_REQUIRED', 'PAYLOAD_TOO_LARGE'],
  limits: chatMessageLimits,
} satisfies Route;
