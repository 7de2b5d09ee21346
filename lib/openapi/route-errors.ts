// The error kinds every authenticated route can answer with, shared by the data routes
// (./routes.ts) and the control plane's (./manage-routes.ts).
import type { ErrorKind } from '#lib/errors.ts';

/** Every authenticated route: credentials, plan, rate limits, scope header bounds, failures. */
export const authenticated: readonly ErrorKind[] = [
  'VALIDATION',
  'INVALID_CREDENTIALS',
  'TOKEN_EXPIRED',
  'TOKEN_INVALID',
  'FORBIDDEN',
  'PLAN_FEATURE_REQUIRED',
  'RATE_LIMITED',
  'MONTHLY_QUOTA_EXCEEDED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
];
