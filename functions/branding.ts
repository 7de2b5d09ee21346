// GET /api/v1/branding: the organization's branding over the defaults (spec endpoint 9).
import { api } from '#lib/http/api.ts';
import { ok } from '#lib/http/response.ts';
import type { Branding } from '#lib/openapi/schemas.ts';
import { readBranding } from '#lib/store/branding.ts';

export const handler = api({ access: { credentials: ['sk', 'pk', 'jwt'] }, scope: 'optional' }).handler(
  async (_event, context) => ok<Branding>(await readBranding(context.principal.organizationId)),
);
