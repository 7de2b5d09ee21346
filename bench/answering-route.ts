// An answering route for bench/limits.ts (the real answering endpoints come with the chat
// engine): the standard chain with `limits: 'answering'` and a handler that does nothing else,
// so what the bench measures on it is the chain and the limiter with its lease.
import { api } from '#lib/http/api.ts';
import { ok } from '#lib/http/response.ts';

export const handler = api({
  access: { credentials: ['sk', 'pk', 'jwt'] },
  scope: 'optional',
  limits: 'answering',
}).handler(async () => ok({ message: 'An answer' }));
