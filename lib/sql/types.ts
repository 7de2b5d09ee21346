// The SQL guard's contract (docs/design.md "Tenant filtering and the SQL guard"): one function per
// dialect takes generated SQL and the request's tenant context and either returns the printed,
// rewritten SQL with its bound parameters, or refuses with a reason code. The steps between are
// written once, in lib/sql/guard.ts; the refusal and the length limit below are the ones every
// step and both dialects use.
import type { Catalog } from '#lib/core/catalog.ts';
import type { EffectivePolicy } from '#lib/core/row-policy.ts';

export interface GuardRequest {
  sql: string;
  catalog: Catalog;
  policy: EffectivePolicy;
  /** The validated X-Tenant-Id value (required when the policy requires scoping). */
  tenant?: string | number;
  /** The end-user scope value, applied to relations that have a scope column. */
  scope?: string | number;
  /** Rows returned at most; the guard adds LIMIT cap+1 so callers can tell truncation. */
  rowCap: number;
  /**
   * PostgreSQL: copy leakproof column-to-constant WHERE conditions into the tenant wrappers, next
   * to the tenant filter (default on). Off only to measure what it wins (bench/sql.ts).
   */
  pushDown?: boolean;
}

/** Why the guard refused a query; stable codes for logs, `admin sql check` and tests. */
export type RefusalCode =
  | 'PARSE_ERROR'
  | 'NOT_ONE_STATEMENT'
  | 'NOT_SELECT'
  | 'DATA_MODIFYING_CTE'
  | 'SELECT_INTO'
  | 'LOCKING_CLAUSE'
  | 'TABLESAMPLE'
  | 'PLACEHOLDER'
  | 'FUNCTION_NOT_ALLOWED'
  /** A function that allocates from an argument the guard cannot bound (lib/sql/allocation.ts). */
  | 'SIZE_NOT_BOUNDED'
  | 'SYSTEM_CATALOG'
  | 'RELATION_NOT_ALLOWED'
  | 'UNKNOWN_RELATION'
  | 'TENANT_REQUIRED'
  | 'UNSUPPORTED_SYNTAX'
  | 'REPRINT_MISMATCH';

/** Longer input is refused before parsing: each parser's time grows with it. */
export const MAX_SQL_LENGTH = 20_000;

/** A refusal on its way out of any step of the guard; the skeleton (lib/sql/guard.ts) makes it the outcome. */
export class Refusal extends Error {
  readonly code: RefusalCode;
  constructor(code: RefusalCode, message: string) {
    super(message);
    this.name = 'Refusal';
    this.code = code;
  }
}

/** Throws the refusal; a function declaration, so that the compiler narrows after a call. */
export function refuse(code: RefusalCode, message: string): never {
  throw new Refusal(code, message);
}

export type GuardOutcome =
  | { allowed: true; sql: string; params: unknown[] }
  | { allowed: false; code: RefusalCode; message: string };

export type Guard = (request: GuardRequest) => GuardOutcome | Promise<GuardOutcome>;
