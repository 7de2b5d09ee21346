// What several route objects share: the error kinds of a family of routes, the control plane's
// access presets, and sentences their descriptions repeat.
import type { ErrorKind } from '#lib/errors.ts';
import { readAccess, writeAccess } from '#lib/manage/access.ts';

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

/** An authenticated route that takes a body (over 1 MB: 413). */
export const withBody: readonly ErrorKind[] = [...authenticated, 'PAYLOAD_TOO_LARGE'];

/** The history routes: custom API access, X-Scope-Id, a conversation of the scope. */
export const history: readonly ErrorKind[] = [
  ...authenticated,
  'FEATURE_NOT_AVAILABLE',
  'SCOPE_REQUIRED',
  'CONVERSATION_NOT_FOUND',
];

/** The routes that answer a question. */
export const answering: readonly ErrorKind[] = [
  ...authenticated,
  'INVALID_TENANT',
  'CONVERSATION_NOT_FOUND',
  'DATABASE_NOT_FOUND',
  'PERSONALITY_NOT_FOUND',
  // A database whose schema was never indexed (detail SCHEMA_NOT_INDEXED).
  'CONNECTION_TEST_FAILED',
  'DB_CONNECTION_FAILED',
  'DB_QUERY_FAILED',
  'LLM_FAILED',
];

/** Every credential that may ask a question. */
export const answeringAccess = { credentials: ['sk', 'pk', 'jwt', 'et'] } as const;

export const conversationScope =
  'Only conversations of the scope in X-Scope-Id are seen; a conversation of another scope or ' +
  "organization is 404, as an unknown one. With an embed session the scope is the token's " +
  '(a token without one is 403, as a missing X-Scope-Id).';

// ---- The control plane (docs/design.md "The control plane"; docs/control-plane.md) ----------

/** A control-plane read: any sk_ key or portal token. */
export const controlPlaneRead = {
  tag: 'Control plane',
  access: readAccess,
  scope: 'optional',
  limits: 'standard',
} as const;

/** A control-plane change: a portal token of an owner or admin, or an sk_ key created with `manage`. */
export const controlPlaneWrite = { ...controlPlaneRead, access: writeAccess } as const;

export const connectionTested =
  'The connection is tested first: a failure is 422 VALIDATION_ERROR with a details entry code ' +
  'CONNECTION_FAILED (its message names the reason: COULD_NOT_CONNECT for every network failure, ' +
  'AUTH_FAILED, …), and nothing is stored or changed.';

export const indexingQuota =
  'Indexing counts one operation of the plan’s indexing quota (429 INDEXING_QUOTA_EXCEEDED, ' +
  'details code QUOTA_EXCEEDED, “N of M used”, when none is left; nothing is stored or changed).';
