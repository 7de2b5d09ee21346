// What a connector does: the contract between a connected database and the rest of the service.
// Each dialect's connectors live in its folder (lib/dialects/<name>/); what introspection returns
// is the core's catalog (lib/core/catalog.ts).
import type { Catalog, DialectName } from '#lib/core/catalog.ts';
import type { EffectivePolicy } from '#lib/core/row-policy.ts';

export interface ExecuteLimits {
  /** Statement timeout; the query is cut and reported as DB_QUERY_FAILED / QUERY_TIMEOUT. */
  timeoutMs: number;
  /** Planner cost ceiling checked with EXPLAIN before running (PostgreSQL); undefined = none. */
  maxCost?: number;
}

export interface QueryResult {
  columns: string[];
  rows: Record<string, unknown>[];
  executionMs: number;
}

export interface IntrospectOptions {
  /**
   * The database's row policy. Samples of a tenant-filtered relation then keep only values
   * seen under two tenants or more (the index is shared by every tenant); relations the guard
   * refuses are not sampled. Without it every relation is sampled.
   */
  policy?: EffectivePolicy;
  /**
   * Called as relations are read and sampled (`done` of `total` relations), so that an indexing
   * job can show its progress (lib/manage/jobs.ts); awaited, so it may write.
   */
  onProgress?: (done: number, total: number) => void | Promise<void>;
}

export interface Connector {
  readonly dialect: DialectName;
  /** Opens a connection (or checks the pool) within the connect timeout. */
  test(): Promise<void>;
  introspect(options?: IntrospectOptions): Promise<Catalog>;
  /** Runs SQL the guard printed, with bound parameters, read-only, within the limits. */
  execute(sql: string, params: readonly unknown[], limits: ExecuteLimits): Promise<QueryResult>;
  close(): Promise<void>;
}
