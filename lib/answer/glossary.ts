// Checking a database's glossary (its shape and storage: lib/store/glossary.ts): metrics and
// filters are SQL expressions over qualified columns, and each passes the SQL guard of the
// database when saved (`checkGlossaryFor`, run by lib/manage/glossary.ts and the indexing job),
// so that nothing saved can read what a generated query could not; every synonym names a table
// or column of the database.
// The builtin engine reads every metric and filter that is a pure expression of one relation's
// columns (lib/answer/builtin/glossary.ts, glossary-sql.ts); the model engines get the whole
// glossary in their prompt (lib/answer/engines/prompt.ts).
import type { Catalog } from '#lib/core/catalog.ts';
import { type EffectivePolicy, effectivePolicy } from '#lib/core/row-policy.ts';
import { guardOf } from '#lib/dialects/machinery.ts';
import { ServiceError } from '#lib/errors.ts';
import type { Guard } from '#lib/sql/types.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import type { Glossary } from '#lib/store/glossary.ts';

/** The qualifiers of an expression's columns: `table.column` or `schema.table.column`. */
const qualifiersIn = (expression: string): string[] => {
  const names = new Set<string>();
  const unquoted = expression.replace(/'(?:[^']|'')*'/g, "''");
  for (const match of unquoted.matchAll(
    /\b([A-Za-z_][A-Za-z0-9_$]*(?:\.[A-Za-z_][A-Za-z0-9_$]*)?)\.[A-Za-z_][A-Za-z0-9_$]*\b/g,
  )) {
    names.add(match[1]!);
  }
  return [...names];
};

/** The probe query a metric or filter is checked with: it must pass the guard like any query. */
export const probeSql = (
  kind: 'metric' | 'filter',
  expression: string,
  relations?: ReadonlySet<string>,
): string | undefined => {
  const qualifiers = qualifiersIn(expression);
  // The database's relations among them: an alias a subquery of the expression declares
  // (`EXISTS (SELECT 1 FROM regular_gifts rg WHERE rg.supporter_id = supporters.id)`) is read by
  // the guard where it is declared. With none of them a relation, all, so that the guard names
  // what it does not know.
  const known = relations ? qualifiers.filter((name) => relations.has(name)) : [];
  const from = known.length > 0 ? known : qualifiers;
  if (from.length === 0) return undefined;
  return kind === 'metric'
    ? `SELECT ${expression} AS value FROM ${from.join(', ')}`
    : `SELECT 1 AS value FROM ${from.join(', ')} WHERE ${expression}`;
};

/**
 * Checks every metric and filter of a glossary against the database's guard (a SELECT over the
 * relations it names) and every synonym's target against the catalog; throws a 400 naming the
 * entries that fail.
 */
export const checkGlossary = async (
  glossary: Glossary,
  context: { catalog: Catalog; policy: EffectivePolicy; guard: Guard },
): Promise<void> => {
  const issues: { field: string; message: string; code: string }[] = [];
  const tables = new Set(
    context.catalog.relations.flatMap((relation) => [relation.name, `${relation.schema}.${relation.name}`]),
  );
  for (const [term, target] of Object.entries(glossary.synonyms)) {
    const parts = target.split('.');
    const table = parts.length === 1 ? target : parts.slice(0, -1).join('.');
    if (!tables.has(target) && !tables.has(table)) {
      issues.push({
        field: `glossary.synonyms.${term}`,
        message: `${target} is not a table or column of this database`,
        code: 'UNKNOWN_RELATION',
      });
    }
  }
  for (const kind of ['metric', 'filter'] as const) {
    const list = kind === 'metric' ? glossary.metrics : glossary.filters;
    for (const [term, expression] of Object.entries(list)) {
      const field = `glossary.${kind === 'metric' ? 'metrics' : 'filters'}.${term}`;
      const sql = probeSql(kind, expression, tables);
      if (!sql) {
        issues.push({
          field,
          message: 'name its columns with their table, for example orders.total',
          code: 'INVALID_VALUE',
        });
        continue;
      }
      let outcome: Awaited<ReturnType<Guard>>;
      try {
        outcome = await context.guard({
          sql,
          catalog: context.catalog,
          policy: context.policy,
          ...(context.policy.requiresScoping ? { tenant: context.policy.tenantColumn ? '1' : 1 } : {}),
          rowCap: 1,
        });
      } catch {
        outcome = { allowed: false, code: 'UNSUPPORTED_SYNTAX', message: 'the guard could not check it' };
      }
      if (!outcome.allowed) {
        issues.push({
          field,
          message: `refused by the SQL guard (${outcome.code}): ${outcome.message}`,
          code: outcome.code,
        });
      }
    }
  }
  if (issues.length > 0) {
    throw new ServiceError('VALIDATION', {
      message: `The glossary is not valid: ${issues[0]!.field} ${issues[0]!.message}`,
      issues,
    });
  }
};

/** Checks a glossary against a catalog and the database's row policy (400 naming each refused entry). */
export const checkGlossaryFor = async (
  database: DatabaseRecord,
  glossary: Glossary,
  catalog: Catalog,
): Promise<void> => {
  await checkGlossary(glossary, {
    catalog,
    policy: effectivePolicy(database),
    guard: await guardOf(catalog.dialect),
  });
};
