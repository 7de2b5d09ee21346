// `admin pattern add` and `admin pattern list` (docs/model-engines.md "Query patterns"): query patterns are
// question → SQL examples the model engines show to the model. A pattern is checked by the SQL
// guard on entry, against the database's schema index and row policy with a placeholder tenant
// of the tenant column's type, so a query the guard would refuse at answer time is never stored
// as an example to imitate. The guard still checks every query an engine proposes.
import * as v from 'valibot';
import type { Catalog, ColumnKind } from '#lib/connectors/types.ts';
import { uuidPattern } from '#lib/ids.ts';
import { type EffectivePolicy, effectivePolicy, relationAccess } from '#lib/sql/policy.ts';
import { type DatabaseRecord, findDatabaseById } from '#lib/store/databases.ts';
import { addPattern, listPatterns, MAX_PATTERNS, NewPattern, publicPattern } from '#lib/store/patterns.ts';
import { readSchemaIndex } from '#lib/store/schema-index.ts';
import { AdminError, type OptionValues, UsageError } from './args.ts';
import { guardFor, ROW_CAP } from './sql-check.ts';

type Connect = () => Promise<void>;

const databaseOption = (value: string | undefined): string => {
  if (!value || !uuidPattern.test(value)) throw new UsageError('--database must be a UUID');
  return value.toLowerCase();
};

const databaseById = async (id: string): Promise<DatabaseRecord> => {
  const database = await findDatabaseById(id);
  if (!database) throw new AdminError(`database ${id} not found`);
  return database;
};

const placeholders: Partial<Record<ColumnKind, string | number>> = {
  integer: 1,
  decimal: '1',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/**
 * A tenant value the guard can bind for every tenant column of the catalog: an integer for
 * integer columns, a UUID for uuid columns, text otherwise. Undefined without scoping.
 */
export const placeholderTenant = (catalog: Catalog, policy: EffectivePolicy): string | number | undefined => {
  if (!policy.requiresScoping) return undefined;
  const kinds = new Set<ColumnKind>();
  for (const relation of catalog.relations) {
    const access = relationAccess(catalog, policy, relation.schema, relation.name);
    if (access.kind !== 'filtered') continue;
    const column = relation.columns.find((c) => c.name === access.tenantColumn);
    if (column) kinds.add(column.kind);
  }
  for (const kind of ['integer', 'uuid', 'decimal'] as const) if (kinds.has(kind)) return placeholders[kind];
  return 'placeholder-tenant';
};

export const patternAdd = async (values: OptionValues, connect: Connect): Promise<unknown> => {
  const databaseId = databaseOption(values.database);
  const parsed = v.safeParse(NewPattern, { question: values.question, sql: values.sql });
  if (!parsed.success) throw new UsageError(parsed.issues.map((issue) => issue.message).join('; '));
  const pattern = parsed.output;

  await connect();
  const database = await databaseById(databaseId);
  const catalog = await readSchemaIndex(database);
  if (!catalog) {
    throw new AdminError(
      `database ${databaseId} has no schema index: run database index --id ${databaseId} first`,
    );
  }
  const policy = effectivePolicy(database);
  const tenant = placeholderTenant(catalog, policy);
  const guard = await guardFor(database.engine);
  const outcome = await guard({
    sql: pattern.sql,
    catalog,
    policy,
    ...(tenant !== undefined ? { tenant } : {}),
    rowCap: ROW_CAP,
  });
  if (!outcome.allowed) {
    throw new UsageError(`--sql refused by the SQL guard: ${outcome.code}: ${outcome.message}`);
  }
  const existing = await listPatterns(databaseId);
  if (existing.length >= MAX_PATTERNS) {
    throw new AdminError(`database ${databaseId} already has ${MAX_PATTERNS} patterns, the most it keeps`);
  }
  return publicPattern(await addPattern(databaseId, pattern));
};

export const patternList = async (values: OptionValues, connect: Connect): Promise<unknown> => {
  const databaseId = databaseOption(values.database);
  await connect();
  await databaseById(databaseId);
  return { patterns: (await listPatterns(databaseId)).map(publicPattern) };
};
