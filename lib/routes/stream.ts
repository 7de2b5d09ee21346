// An answer as server-sent events (functions/stream.ts; spec endpoint 8).

import { StreamMessageInput } from '#lib/answer/inputs.ts';
import type { Route } from '#lib/http/route.ts';
import { answering, answeringAccess } from './common.ts';
import { StreamEvent } from './schemas.ts';

export const streamAnswer = {
  method: 'GET',
  path: '/api/v1/chat/{conversation_id}/stream',
  functionName: 'stream',
  operationId: 'streamAnswer',
  tag: 'Answers',
  summary: 'Stream an answer (server-sent events)',
  description:
    'Answers `message` in an existing conversation (it supplies the database) as server-sent ' +
    'events (each parsed event is a StreamEvent), written as the answer is produced:\n\n' +
    '- `event: status` with `data:` StreamStatus: the step the answer is at (reading_question, ' +
    'writing_query, running_query, writing_answer), each as it starts, before the first piece;\n' +
    '- `data: {"content": "…"}` (unnamed events, schema StreamChunk): the pieces of the answer, ' +
    'in order; their concatenation is the stored assistant message;\n' +
    '- `event: done` with `data:` StreamDone: the last event of an answered stream;\n' +
    '- `event: error` with `data:` ErrorEnvelope: a failure after the stream started (the stream ' +
    'then ends);\n' +
    '- `: ping` comments keep an idle connection open.\n\n' +
    'Everything that can be refused (credentials, limits, an unknown conversation, a missing or ' +
    'empty `message`, the tenant) is refused before the stream starts, as an ordinary JSON ' +
    'error response with its status. A client that disconnects stops the answer.',
  access: answeringAccess,
  scope: 'optional',
  tenant: true,
  input: StreamMessageInput,
  responses: [
    {
      status: 200,
      description: 'The event stream',
      events: StreamEvent,
    },
  ],
  errors: answering,
  limits: 'answering',
  stream: true,
} satisfies Route;
