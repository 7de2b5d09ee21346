// A rating of one answer (functions/message-feedback.ts; lib/conversations/feedback.ts).

import { FeedbackInput, scopeHistoryAccess } from '#lib/conversations/inputs.ts';
import type { Route } from '#lib/http/route.ts';
import { conversationScope, history } from './common.ts';
import { FeedbackResponse } from './schemas.ts';

export const rateAnswer = {
  method: 'POST',
  path: '/api/v1/chat/{conversation_id}/messages/{message_id}/feedback',
  functionName: 'messageFeedback',
  operationId: 'rateAnswer',
  tag: 'Conversations',
  summary: 'Rate an answer',
  description:
    'A rating of one answer (`up` or `down`), with an optional comment and corrected SQL; a second ' +
    'rating of the same answer replaces the first. An up-voted SQL answer, or a corrected SQL that ' +
    'passes the SQL guard, becomes a candidate query pattern of the database for the question, ' +
    'which an admin approves (GET …/patterns?status=candidate, PATCH status). ' +
    conversationScope,
  access: scopeHistoryAccess,
  scope: 'required',
  input: FeedbackInput,
  responses: [{ status: 201, schema: FeedbackResponse, description: 'The rating is stored' }],
  errors: history,
  limits: 'standard',
} satisfies Route;
