// The organization's usage (functions/usage.ts; docs/control-plane.md "Usage").
import type { Route } from '#lib/http/route.ts';
import { authenticated, controlPlaneRead } from './common.ts';
import { UsageResponse } from './manage-schemas.ts';

export const getUsage = {
  method: 'GET',
  path: '/api/v1/organization/usage',
  functionName: 'usage',
  operationId: 'getUsage',
  summary: 'Get usage',
  description:
    'The plan, the current minute and hour of the plan’s request limits, the monthly API quota, ' +
    'the indexing quota of this calendar month (UTC) and this month’s answers by who answered ' +
    '(builtin engine, model engine, query pattern, shared SQL cache).',
  ...controlPlaneRead,
  responses: [{ status: 200, schema: UsageResponse, description: 'The usage' }],
  errors: authenticated,
} satisfies Route;
