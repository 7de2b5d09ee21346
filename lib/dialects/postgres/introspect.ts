// Introspection of a PostgreSQL database (server or PGlite) from pg_catalog: tables, views,
// materialized views, foreign tables and sequences the connecting role can read, with columns,
// primary and foreign keys, the planner's row estimates, and user functions. pg_catalog rather
// than information_schema: it is faster, shows materialized views, and does not hide columns.

import {
  collectSamples,
  describedAs,
  emptyRelation,
  MAX_SAMPLE_VALUES,
  SAMPLE_SCAN_ROWS,
  SAMPLE_TIMEOUT_MS,
  type SampleRequest,
} from '#lib/connectors/introspect.ts';
import type { IntrospectOptions } from '#lib/connectors/types.ts';
import type { Catalog, CatalogRelation, ColumnKind, RelationKind } from '#lib/core/catalog.ts';
import { POSTGRES_SYSTEM } from './policy.ts';

const postgresKinds: Record<string, ColumnKind> = {
  int2: 'integer',
  int4: 'integer',
  int8: 'integer',
  oid: 'integer',
  numeric: 'decimal',
  float4: 'decimal',
  float8: 'decimal',
  money: 'decimal',
  text: 'text',
  varchar: 'text',
  bpchar: 'text',
  char: 'text',
  name: 'text',
  citext: 'text',
  uuid: 'uuid',
  bool: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  timestamptz: 'timestamp',
  json: 'json',
  jsonb: 'json',
};

/** PostgreSQL: by the (domain's base) type name; enums are text. */
export const postgresColumnKind = (typname: string, typtype: string): ColumnKind =>
  typtype === 'e' ? 'text' : (postgresKinds[typname] ?? 'other');

/** Runs trusted SQL (read-only) and returns rows as objects. */
export type RunQuery = (
  sql: string,
  params?: readonly unknown[],
  timeoutMs?: number,
) => Promise<Record<string, unknown>[]>;

const relationKinds: Record<string, RelationKind> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
  S: 'sequence',
};

// User relations only; partitions are reached through their parent; unreadable ones are left out.
const relationFilter = `
  c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
  AND NOT c.relispartition
  AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
  AND n.nspname NOT LIKE 'pg\\_temp\\_%' AND n.nspname NOT LIKE 'pg\\_toast\\_temp\\_%'
  AND pg_catalog.has_schema_privilege(n.oid, 'USAGE')
  AND pg_catalog.has_table_privilege(c.oid, 'SELECT')`;

const relationsSql = `
SELECT c.oid::pg_catalog.int8 AS oid, n.nspname AS schema, c.relname AS name, c.relkind::pg_catalog.text AS relkind,
  COALESCE(NULLIF(c.reltuples, -1), s.n_live_tup, 0)::pg_catalog.float8 AS estimate,
  pg_catalog.obj_description(c.oid, 'pg_class') AS description
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_catalog.pg_stat_all_tables s ON s.relid = c.oid
WHERE ${relationFilter}
ORDER BY n.nspname, c.relname`;

const columnsSql = `
SELECT a.attrelid::pg_catalog.int8 AS oid, a.attname AS name,
  pg_catalog.format_type(a.atttypid, a.atttypmod) AS native,
  COALESCE(bt.typname, t.typname)::pg_catalog.text AS typname,
  COALESCE(bt.typtype, t.typtype)::pg_catalog.text AS typtype,
  NOT a.attnotnull AS nullable,
  pg_catalog.col_description(a.attrelid, a.attnum::pg_catalog.int4) AS description
FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
LEFT JOIN pg_catalog.pg_type bt ON t.typtype = 'd' AND bt.oid = t.typbasetype
WHERE ${relationFilter} AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attrelid, a.attnum`;

const keyColumns = (keys: string, relid: string) => `
  ARRAY(SELECT a.attname::pg_catalog.text
        FROM pg_catalog.unnest(${keys}) WITH ORDINALITY AS k(attnum, position)
        JOIN pg_catalog.pg_attribute a ON a.attrelid = ${relid} AND a.attnum = k.attnum
        ORDER BY k.position)`;

const constraintsSql = `
SELECT con.conrelid::pg_catalog.int8 AS oid, con.contype::pg_catalog.text AS type, con.conname AS name,
  ${keyColumns('con.conkey', 'con.conrelid')} AS columns,
  fn.nspname AS ref_schema, fc.relname AS ref_name,
  ${keyColumns('con.confkey', 'con.confrelid')} AS ref_columns
FROM pg_catalog.pg_constraint con
JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_catalog.pg_class fc ON fc.oid = con.confrelid
LEFT JOIN pg_catalog.pg_namespace fn ON fn.oid = fc.relnamespace
WHERE ${relationFilter} AND con.contype IN ('p', 'f')
ORDER BY con.conrelid, con.conname`;

// Extension functions in user schemas count too: the guard refuses all of them.
const functionsSql = `
SELECT DISTINCT p.proname AS name
FROM pg_catalog.pg_proc p
JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
ORDER BY 1`;

export const quotePostgres = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

const sampleSql = ({ relation, column, tenantColumn, scopeColumn }: SampleRequest): string => {
  const table = `${quotePostgres(relation.schema)}.${quotePostgres(relation.name)}`;
  const tenant = tenantColumn ? quotePostgres(tenantColumn) : 'NULL';
  const scope = scopeColumn ? quotePostgres(scopeColumn) : 'NULL';
  return `SELECT s.v, pg_catalog.count(DISTINCT s.t) AS tenants, pg_catalog.count(DISTINCT s.sc) AS scopes
FROM (SELECT ${quotePostgres(column)}::pg_catalog.text AS v, ${tenant} AS t, ${scope} AS sc FROM ${table} LIMIT ${SAMPLE_SCAN_ROWS}) AS s
WHERE s.v IS NOT NULL
GROUP BY s.v ORDER BY s.v LIMIT ${MAX_SAMPLE_VALUES + 1}`;
};

const stringArray = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? parseTextArray(value) : [];

/** `{a,"b c"}` → ['a', 'b c'] (when a driver leaves text[] unparsed). */
const parseTextArray = (text: string): string[] => {
  const inner = text.replace(/^\{|\}$/g, '');
  if (!inner) return [];
  const items: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|([^,]+)/g;
  for (const match of inner.matchAll(pattern)) {
    items.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? ''));
  }
  return items;
};

export const introspectPostgres = async (
  run: RunQuery,
  options: IntrospectOptions = {},
  now = new Date(),
): Promise<Catalog> => {
  const [schemaRows, relationRows, columnRows, constraintRows, functionRows] = [
    await run('SELECT pg_catalog.current_schema() AS schema'),
    await run(relationsSql),
    await run(columnsSql),
    await run(constraintsSql),
    await run(functionsSql),
  ];
  const byOid = new Map<string, CatalogRelation>();
  const relations: CatalogRelation[] = [];
  for (const row of relationRows) {
    const relation = emptyRelation(
      String(row.schema),
      String(row.name),
      relationKinds[String(row.relkind)] ?? 'table',
      Number(row.estimate),
      row.description,
    );
    if (relation.kind === 'view' || relation.kind === 'sequence') relation.rowEstimate = 0;
    byOid.set(String(row.oid), relation);
    relations.push(relation);
  }
  for (const row of columnRows) {
    const description = describedAs(row.description);
    byOid.get(String(row.oid))?.columns.push({
      name: String(row.name),
      kind: postgresColumnKind(String(row.typname), String(row.typtype)),
      nativeType: String(row.native),
      nullable: row.nullable === true || row.nullable === 't',
      ...(description ? { description } : {}),
    });
  }
  for (const row of constraintRows) {
    const relation = byOid.get(String(row.oid));
    if (!relation) continue;
    if (row.type === 'p') relation.primaryKey = stringArray(row.columns);
    else
      relation.foreignKeys.push({
        columns: stringArray(row.columns),
        references: {
          schema: String(row.ref_schema),
          name: String(row.ref_name),
          columns: stringArray(row.ref_columns),
        },
      });
  }
  const catalog: Catalog = {
    dialect: 'postgres',
    defaultSchema: typeof schemaRows[0]?.schema === 'string' ? schemaRows[0].schema : 'public',
    relations,
    userFunctions: functionRows.map((row) => String(row.name)),
    indexedAt: now.toISOString(),
  };
  await collectSamples(
    catalog,
    options,
    async (request) =>
      (await run(sampleSql(request), [], SAMPLE_TIMEOUT_MS)).map((row) => ({
        v: row.v,
        tenants: row.tenants,
        scopes: row.scopes,
      })),
    POSTGRES_SYSTEM,
  );
  return catalog;
};
