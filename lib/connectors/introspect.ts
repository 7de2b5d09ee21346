// What every dialect's introspection shares: the bounded sampling of
// low-cardinality text columns (distinct values an engine can match words of a question to).
//
// Samples and tenants: the index is one per database, so a sampled value is visible to every
// tenant's questions (and is written into model prompts). A relation the row policy filters by
// tenant therefore keeps only values that occur under at least two tenants (an order status, not
// a customer's company name), and a relation with a scope column only values that occur under at
// least two scopes as well (docs/design.md "Answering on unseen databases": a value of one end
// user is not shown to another of the same tenant); a shared or unscoped relation without a
// scope column keeps all; a relation the guard would refuse is not sampled. The counts come
// from the sampled rows only, so a value kept was seen under two tenants (scopes) for certain.

import type { Catalog, CatalogRelation } from '#lib/core/catalog.ts';
import { relationAccess, type SystemNames } from '#lib/core/row-policy.ts';
import type { IntrospectOptions } from './types.ts';

/** At most this many distinct values make a column "low-cardinality". */
export const MAX_SAMPLE_VALUES = 50;
/** Rows read per sampled column (a bounded scan, whatever the table's size). */
export const SAMPLE_SCAN_ROWS = 10_000;
/** Longer values are not categories; a column holding one is not sampled. */
export const MAX_SAMPLE_LENGTH = 100;
/** Sampled columns per database: one bounded query each. */
export const MAX_SAMPLED_COLUMNS = 300;
/** Per sample query; a slow one is skipped, not fatal. */
export const SAMPLE_TIMEOUT_MS = 5_000;

// ---- samples -----------------------------------------------------------------------------------

export interface SampleRequest {
  relation: CatalogRelation;
  column: string;
  /** Count distinct tenants per value on this column (tenant-filtered relations). */
  tenantColumn?: string;
  /** Count distinct scopes per value on this column (relations with a scope column). */
  scopeColumn?: string;
}

/**
 * Rows of `SELECT v, tenants, scopes … GROUP BY v ORDER BY v LIMIT MAX_SAMPLE_VALUES + 1`
 * (`scopes` may be absent when the request has no scope column).
 */
export type SampleQuery = (
  request: SampleRequest,
) => Promise<{ v: unknown; tenants: unknown; scopes?: unknown }[]>;

const samplingRule = (
  catalog: Catalog,
  options: IntrospectOptions,
  relation: CatalogRelation,
  system: SystemNames,
): { sample: false } | { sample: true; tenantColumn?: string; scopeColumn?: string } => {
  if (!options.policy) return relation.kind === 'sequence' ? { sample: false } : { sample: true };
  const access = relationAccess(catalog, options.policy, relation.schema, relation.name, system);
  if (access.kind === 'refused') return { sample: false };
  const scope = access.scopeColumn === undefined ? {} : { scopeColumn: access.scopeColumn };
  if (access.kind === 'filtered') return { sample: true, tenantColumn: access.tenantColumn, ...scope };
  return { sample: true, ...scope };
};

/** At least two tenants (scopes) for every count the rule asks for. */
const seenWidely = (
  row: { tenants: unknown; scopes?: unknown },
  rule: { tenantColumn?: string; scopeColumn?: string },
): boolean =>
  (rule.tenantColumn === undefined || Number(row.tenants) >= 2) &&
  (rule.scopeColumn === undefined || Number(row.scopes) >= 2);

/**
 * Fills `samples` of each relation in place; failures of single columns are skipped. `system`:
 * the dialect's own catalogs (its `Dialect` object), never sampled.
 */
export const collectSamples = async (
  catalog: Catalog,
  options: IntrospectOptions,
  query: SampleQuery,
  system: SystemNames,
): Promise<void> => {
  let budget = MAX_SAMPLED_COLUMNS;
  // Progress counts tables and views (a job's tables_total); sequences are listed, never sampled.
  const sampled = catalog.relations.filter((relation) => relation.kind !== 'sequence');
  const total = sampled.length;
  let done = 0;
  await options.onProgress?.(done, total);
  for (const relation of sampled) {
    if (done > 0) await options.onProgress?.(done, total);
    done += 1;
    const rule = samplingRule(catalog, options, relation, system);
    if (!rule.sample) continue;
    for (const column of relation.columns) {
      if (column.kind !== 'text' || column.name === rule.tenantColumn || column.name === rule.scopeColumn)
        continue;
      if (budget-- <= 0) return;
      let rows: { v: unknown; tenants: unknown; scopes?: unknown }[];
      try {
        rows = await query({
          relation,
          column: column.name,
          ...(rule.tenantColumn ? { tenantColumn: rule.tenantColumn } : {}),
          ...(rule.scopeColumn ? { scopeColumn: rule.scopeColumn } : {}),
        });
      } catch {
        continue;
      }
      if (rows.length === 0 || rows.length > MAX_SAMPLE_VALUES) continue;
      const values = rows.map((row) => (row.v === null || row.v === undefined ? '' : String(row.v)));
      if (values.some((value) => value.length === 0 || value.length > MAX_SAMPLE_LENGTH)) continue;
      const kept = values.filter((_, i) => seenWidely(rows[i]!, rule));
      // defineProperty: a column named `__proto__` is a key like any other, not the prototype.
      if (kept.length > 0)
        Object.defineProperty(relation.samples, column.name, {
          value: kept,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
  }
  await options.onProgress?.(total, total);
};

/** Characters kept of a relation's or column's comment (a comment may be a whole document). */
export const MAX_DESCRIPTION_LENGTH = 500;

/** A database comment as a description: trimmed and cut; undefined when there is none. */
export const describedAs = (comment: unknown): string | undefined => {
  const text = typeof comment === 'string' ? comment.trim() : '';
  return text ? text.slice(0, MAX_DESCRIPTION_LENGTH) : undefined;
};

/** A fresh relation entry, with its comment when it has one; the dialects fill columns and keys. */
export const emptyRelation = (
  schema: string,
  name: string,
  kind: CatalogRelation['kind'],
  rowEstimate: number,
  comment?: unknown,
): CatalogRelation => {
  const description = describedAs(comment);
  return {
    schema,
    name,
    kind,
    ...(description ? { description } : {}),
    columns: [],
    primaryKey: [],
    foreignKeys: [],
    rowEstimate: Number.isFinite(rowEstimate) && rowEstimate > 0 ? Math.round(rowEstimate) : 0,
    samples: {},
  };
};
