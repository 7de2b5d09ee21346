// The organization's branding (functions/branding.ts): read by every credential, replaced by the
// control plane's writers (docs/control-plane.md "Branding").
import type { Route } from '#lib/http/route.ts';
import { BrandingPutInput } from '#lib/store/branding.ts';
import { authenticated, controlPlaneWrite, withBody } from './common.ts';
import { BrandingResponse } from './schemas.ts';

export const getBranding = {
  method: 'GET',
  path: '/api/v1/branding',
  functionName: 'branding',
  operationId: 'getBranding',
  tag: 'Organization',
  summary: 'Get branding',
  description:
    "The organization's branding (colors, logos, widget theme): the fields set with `admin branding set` over the defaults.",
  access: { credentials: ['sk', 'pk', 'jwt', 'et'] },
  scope: 'optional',
  responses: [{ status: 200, schema: BrandingResponse, description: 'The branding' }],
  errors: authenticated,
  limits: 'standard',
} satisfies Route;

export const putBranding = {
  method: 'PUT',
  path: '/api/v1/branding',
  functionName: 'branding',
  operationId: 'putBranding',
  summary: 'Replace branding',
  description:
    'Replaces the organization’s branding: the fields of GET /api/v1/branding, any subset of them ' +
    '(colours as #rgb or #rrggbb, logos as http(s) URLs); a field left out falls back to the ' +
    'default. Answers the branding as GET does.',
  ...controlPlaneWrite,
  tag: 'Organization',
  input: BrandingPutInput,
  responses: [{ status: 200, schema: BrandingResponse, description: 'The branding' }],
  errors: withBody,
} satisfies Route;
