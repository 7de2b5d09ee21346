// The catalog: what introspecting a connected database returns, and what the SQL guard, the
// answering engines, the schema index and the control plane all read. Part of the core
// (docs/design.md "Databases as one seam"): it imports nothing of the service.
/**
 * The name of the SQL dialect a catalog was read in: one of the registry's dialects
 * (lib/dialects/index.ts), which every layer above the core looks up by this name.
 */
export type DialectName = string;

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
  /**
   * What the relation holds in words: the database's own comment (`COMMENT ON TABLE`/`VIEW`,
   * MySQL's table comment); a descriptions file describes columns only.
   */
  description?: string;
  columns: CatalogColumn[];
  primaryKey: string[];
  foreignKeys: ForeignKey[];
  /** The planner's row estimate (0 when unknown). */
  rowEstimate: number;
  /** Distinct values of low-cardinality text columns, for matching words in questions. */
  samples: Record<string, string[]>;
}

export interface Catalog {
  dialect: DialectName;
  /** The schema unqualified names resolve to (`public`; the database name on MySQL). */
  defaultSchema: string;
  relations: CatalogRelation[];
  /** Names of user-defined functions/procedures: always refused by the guard. */
  userFunctions: string[];
  indexedAt: string;
}
