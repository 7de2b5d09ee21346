// The organization's usage (lib/routes/usage.ts; docs/control-plane.md "Usage"): its plan, its
// current rate-limit windows, monthly and indexing quotas, and this month's answers by engine.
import { api } from '#lib/http/api.ts';
import { ok } from '#lib/http/response.ts';
import { readUsage } from '#lib/manage/usage.ts';
import type { Usage } from '#lib/routes/manage-schemas.ts';
import * as routes from '#lib/routes/usage.ts';

export const handler = api(routes.getUsage).handler(async (_event, context) =>
  ok<Usage>(await readUsage(context.principal)),
);
