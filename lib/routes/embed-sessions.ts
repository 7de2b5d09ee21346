// Embed sessions: short-lived widget tokens (functions/embed-sessions.ts; docs/design.md "Embed
// sessions").

import { EmbedSessionInput } from '#lib/auth/embed-session-input.ts';
import type { Route } from '#lib/http/route.ts';
import { authenticated } from './common.ts';
import { EmbedSessionResponse } from './schemas.ts';

export const createEmbedSession = {
  method: 'POST',
  path: '/api/v1/embed/sessions',
  functionName: 'embedSessions',
  operationId: 'createEmbedSession',
  tag: 'Embed sessions',
  summary: 'Create an embed session for the widget',
  description:
    'Called by your server, after it has signed its own user in, to get a short-lived token the ' +
    'widget uses instead of a key: `Authorization: Bearer et_…`. The token names the database, ' +
    'the tenant (`tenant_id`: required when the database filters rows by tenant, validated like ' +
    'X-Tenant-Id against the tenant column, and refused when it does not) and the end-user scope ' +
    '(`scope_id`: required when the row policy says `scope_required`). Its tenant and scope are ' +
    'the only ones it can use: an X-Tenant-Id or X-Scope-Id that differs is 403. It may answer ' +
    '(both chat variants that answer, the stream), read branding, and read and delete its own ' +
    "scope's conversations. `origins` (1 to 10 `https://host[:port]`, `http://localhost` allowed) " +
    'limits the pages that may use it; `ttl_seconds` is 60 to 3600 (default 900). Each token ' +
    "scope has its own message limit (10 per minute) inside the organization's. A database that " +
    'filters rows by tenant refuses pk_ keys (403, details code EMBED_SESSION_REQUIRED).',
  access: { credentials: ['sk', 'jwt'] },
  scope: 'optional',
  input: EmbedSessionInput,
  responses: [{ status: 201, schema: EmbedSessionResponse, description: 'The embed session' }],
  errors: [...authenticated, 'DATABASE_NOT_FOUND', 'PERSONALITY_NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
  limits: 'standard',
} satisfies Route;
