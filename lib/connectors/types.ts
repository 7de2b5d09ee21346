// The contract between connected databases and the rest of the service: what introspection
// returns (the catalog the SQL guard and the answering engines read) and what a connector does.
// Connectors: lib/connectors/{pglite,postgres,mysql}.ts.
import type { EffectivePolicy } from '#lib/sql/policy.ts';

export type Dialect = 'postgres' | 'mysql';

/** Column types as the guard and the engines reason about them; `nativeType` keeps the detail. */
export type ColumnKind =
  | 'integer'
  | 'decimal'
  | 'text'
  | 'uuid'
  | 'boolean'
  | 'date'
  | 'timestamp'
  | 'json'
  | 'other';

export interface CatalogColumn {
  name: string;
  kind: ColumnKind;
  nativeType: string;
  nullable: boolean;
  /**
   * What the column means in words: the database's own comment (`COMMENT ON COLUMN`, MySQL's
   * column comment) or the operator's descriptions file (lib/connectors/descriptions.ts).
   */
  description?: string;
}

export type RelationKind = 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'sequence';

export interface ForeignKey {
  columns: string[];
  references: { schema: string; name: string; columns: string[] };
}

export interface CatalogRelation {
  schema: string;
  name: string;
  kind: RelationKind;
  columns: CatalogColumn[];
  primaryKey: string[];
  foreignKeys: ForeignKey[];
  /** The planner's row estimate (0 when unknown). */
  rowEstimate: number;
  /** Distinct values of low-cardinality text columns, for matching words in questions. */
  samples: Record<string, string[]>;
}

export interface Catalog {
  dialect: Dialect;
  /** The schema unqualified names resolve to (`public`; the database name on MySQL). */
  defaultSchema: string;
  relations: CatalogRelation[];
  /** Names of user-defined functions/procedures: always refused by the guard. */
  userFunctions: string[];
  indexedAt: string;
}

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
  readonly dialect: Dialect;
  /** Opens a connection (or checks the pool) within the connect timeout. */
  test(): Promise<void>;
  introspect(options?: IntrospectOptions): Promise<Catalog>;
  /** Runs SQL the guard printed, with bound parameters, read-only, within the limits. */
  execute(sql: string, params: readonly unknown[], limits: ExecuteLimits): Promise<QueryResult>;
  close(): Promise<void>;
}
