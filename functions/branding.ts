// The organization's branding (lib/routes/branding.ts): read, over the defaults (spec endpoint 9),
// and replaced.
import { api } from '#lib/http/api.ts';
import { ok } from '#lib/http/response.ts';
import { routeTable } from '#lib/http/route-table.ts';
import * as routes from '#lib/routes/branding.ts';
import type { Branding } from '#lib/routes/schemas.ts';
import { readBranding, saveBranding } from '#lib/store/branding.ts';

const read = api(routes.getBranding).handler(async (_event, context) =>
  ok<Branding>(await readBranding(context.principal.organizationId)),
);

// PUT: the control plane (docs/control-plane.md "Branding"): the GET shape, any subset of it,
// colours checked; fields left out fall back to the defaults.
const replace = api(routes.putBranding).handler(async (_event, context) =>
  ok<Branding>(await saveBranding(context.principal.organizationId, context.input.body)),
);

export const handler = routeTable([
  [routes.getBranding, read],
  [routes.putBranding, replace],
]);
