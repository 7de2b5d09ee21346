// One database of an eval set loaded in process (eval/direct.ts, eval/linking.ts): its seed in a
// fresh PGlite, introspected under its row policy as `admin database add` does, with its
// descriptions file and glossary applied; the catalog as the engine sees it besides the full one.
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { visibleCatalog } from '#lib/answer/catalog.ts';
import { parseDescriptions, withDescriptions } from '#lib/connectors/descriptions.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { type EffectivePolicy, effectivePolicy } from '#lib/core/row-policy.ts';
import { introspectPostgres } from '#lib/dialects/postgres/introspect.ts';
import { type Glossary, parseGlossary } from '#lib/store/glossary.ts';
import type { EvalDatabase } from './sets.ts';

export interface LoadedDatabase {
  /** The seeded database (the caller closes it). */
  db: PGlite;
  full: Catalog;
  visible: Catalog;
  policy: EffectivePolicy;
  glossary?: Glossary;
}

export const loadEvalDatabase = async (spec: EvalDatabase): Promise<LoadedDatabase> => {
  const db = new PGlite();
  await db.exec(readFileSync(spec.seed, 'utf8'));
  const policy = effectivePolicy({
    requiresOrganizationScoping: spec.requiresScoping,
    ...(spec.tenantColumn ? { tenantFilterColumn: spec.tenantColumn } : {}),
    policy: spec.policy,
  });
  const run = async (sql: string, params: readonly unknown[] = []) =>
    (await db.query<Record<string, unknown>>(sql, [...params])).rows;
  let full = await introspectPostgres(run, { policy });
  if (spec.descriptions)
    full = withDescriptions(full, parseDescriptions(JSON.parse(readFileSync(spec.descriptions, 'utf8'))));
  const glossary = spec.glossary ? parseGlossary(JSON.parse(readFileSync(spec.glossary, 'utf8'))) : undefined;
  return { db, full, visible: visibleCatalog(full, policy), policy, ...(glossary ? { glossary } : {}) };
};
