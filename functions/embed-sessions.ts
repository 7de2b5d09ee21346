// Creating an embed session (lib/routes/embed-sessions.ts): a short-lived token (`et_…`) for the
// widget on one database, tenant and scope, asked for by the integrator's server with its sk_ key or a portal
// JWT once it has signed its own user in (docs/design.md "Embed sessions", docs/widget.md).
import { type CreatedEmbedSession, createEmbedSession } from '#lib/auth/embed-sessions.ts';
import { api } from '#lib/http/api.ts';
import { ok } from '#lib/http/response.ts';
import * as routes from '#lib/routes/embed-sessions.ts';
import type { EmbedSession } from '#lib/routes/schemas.ts';

export const handler = api(routes.createEmbedSession).handler(async (_event, context) =>
  ok<EmbedSession>(
    (await createEmbedSession(context.principal, context.input.body)) satisfies CreatedEmbedSession,
    { status: 201 },
  ),
);
