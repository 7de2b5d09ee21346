// A database's glossary (docs/databases.md "Glossary"; docs/design.md "Answering on unseen
// databases"): the operator's words for this database, used by every engine.
//   { "synonyms": { "clients": "owners", "vets": "veterinarian" },
//     "metrics":  { "revenue": "SUM(treatment_items.quantity * treatment_items.unit_price)" },
//     "filters":  { "active": "veterinarian.is_active" } }
// Synonyms name a table (or `table.column`) by another word. Metrics and filters are SQL
// expressions over qualified columns; each passes the SQL guard of the database when saved
// (`checkGlossary`), so that nothing saved can read what a generated query could not. The builtin
// engine reads every metric and filter that is a pure expression of one relation's columns
// (lib/answer/builtin/glossary.ts, glossary-sql.ts); the model engines get the whole glossary in
// their prompt (lib/answer/engines/prompt.ts).
import * as v from 'valibot';
import type { Catalog } from '#lib/connectors/types.ts';
import { ServiceError } from '#lib/errors.ts';
import type { EffectivePolicy } from '#lib/sql/policy.ts';
import type { Guard } from '#lib/sql/types.ts';

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);
const Term = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  v.maxLength(60),
  v.regex(/^[\p{L}\p{N}][\p{L}\p{N} _'-]*$/u, 'must be a word or a short phrase'),
  v.check((term) => !RESERVED.has(term), 'is a reserved name'),
);
const Target = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*){0,2}$/, 'must name a table or table.column'),
);
const Expression = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(500));
const entries = <T extends v.GenericSchema<string, string>>(value: T) =>
  v.optional(
    v.pipe(
      v.record(Term, value),
      v.check((r) => Object.keys(r).length <= 200, 'has too many entries'),
    ),
    {},
  );

export const GlossarySchema = v.strictObject({
  synonyms: entries(Target),
  metrics: entries(Expression),
  filters: entries(Expression),
});
export type Glossary = v.InferOutput<typeof GlossarySchema>;

export const emptyGlossary = (): Glossary => ({ synonyms: {}, metrics: {}, filters: {} });

export const isEmptyGlossary = (glossary: Glossary | undefined): boolean =>
  !glossary ||
  Object.keys(glossary.synonyms).length +
    Object.keys(glossary.metrics).length +
    Object.keys(glossary.filters).length ===
    0;

/** A glossary's JSON, checked (400 VALIDATION_ERROR naming each bad entry). */
export const parseGlossary = (json: unknown, field = 'glossary'): Glossary => {
  const parsed = v.safeParse(GlossarySchema, json);
  if (parsed.success) return parsed.output;
  const issues = parsed.issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => String(item.key)).join('.');
    return { field: path ? `${field}.${path}` : field, message: issue.message, code: 'INVALID_VALUE' };
  });
  throw new ServiceError('VALIDATION', {
    message: `The glossary is not valid: ${issues[0]?.message}`,
    issues,
  });
};

/** Relations an expression names as `table.column` or `schema.table.column`. */
const relationsIn = (expression: string): string[] => {
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
export const probeSql = (kind: 'metric' | 'filter', expression: string): string | undefined => {
  const relations = relationsIn(expression);
  if (relations.length === 0) return undefined;
  const from = relations.join(', ');
  return kind === 'metric'
    ? `SELECT ${expression} AS value FROM ${from}`
    : `SELECT 1 AS value FROM ${from} WHERE ${expression}`;
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
      const sql = probeSql(kind, expression);
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
