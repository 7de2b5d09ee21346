// Row-policy lookups follow own properties only (lib/core/row-policy.ts listedRelation): a view named
// after an Object.prototype member (`constructor`, `toString`, `__proto__`) is not "listed" by
// every policy, and the row policy refuses to list such names rather than dropping them. Sample
// lookups by column name follow the same rule, so a column named `constructor` is not a crash.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildLexicon } from '#lib/answer/builtin/lexicon.ts';
import { renderRelation } from '#lib/answer/engines/schema-details.ts';
import type { Catalog, CatalogRelation } from '#lib/core/catalog.ts';
import { effectivePolicy, listedRelation, RowPolicy, relationAccess } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { postgres } from '#lib/dialects/postgres/index.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';

const PROTOTYPE_NAMES = [
  'constructor',
  'toString',
  '__proto__',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
];

const view = (name: string, schema = 'public'): CatalogRelation => ({
  schema,
  name,
  kind: 'view',
  columns: [
    { name: 'id', kind: 'integer', nativeType: 'integer', nullable: false },
    { name: 'org_id', kind: 'integer', nativeType: 'integer', nullable: false },
  ],
  primaryKey: [],
  foreignKeys: [],
  rowEstimate: 0,
  samples: {},
});

const catalogOf = (relations: CatalogRelation[], dialect: Catalog['dialect'] = 'postgres'): Catalog => ({
  dialect,
  defaultSchema: dialect === 'postgres' ? 'public' : 'shop',
  relations,
  userFunctions: [],
  indexedAt: '2026-01-01T00:00:00.000Z',
});

const policyOf = (requiresScoping: boolean, tables: Record<string, { shared?: boolean }> = {}) =>
  effectivePolicy({
    requiresOrganizationScoping: requiresScoping,
    tenantFilterColumn: 'org_id',
    policy: { tenant_column: 'org_id', tables },
  });

describe('relationAccess: unlisted views named after Object.prototype members', () => {
  const catalog = catalogOf(PROTOTYPE_NAMES.map((name) => view(name)));

  it.each(PROTOTYPE_NAMES)('refuses the view %s under an empty policy, scoped or not', (name) => {
    for (const requiresScoping of [true, false]) {
      expect(relationAccess(catalog, policyOf(requiresScoping), undefined, name, postgres)).toMatchObject({
        kind: 'refused',
        code: 'RELATION_NOT_ALLOWED',
      });
      expect(relationAccess(catalog, policyOf(requiresScoping), 'public', name, postgres).kind).toBe(
        'refused',
      );
    }
  });

  it('reads only own entries of the policy', () => {
    const policy = policyOf(true, { toString: { shared: true } });
    expect(listedRelation(policy, 'toString')).toEqual({ shared: true });
    for (const name of ['constructor', '__proto__', 'valueOf'])
      expect(listedRelation(policy, name)).toBeUndefined();
    // A listed view of such a name is read as listed.
    expect(relationAccess(catalog, policy, undefined, 'toString', postgres).kind).toBe('open');
  });

  it('refuses them through both guards', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const postgres = await guardPostgres({
        sql: `SELECT id FROM "${name}"`,
        catalog,
        policy: policyOf(true),
        tenant: 1,
        rowCap: 10,
      });
      expect(postgres, name).toMatchObject({ allowed: false, code: 'RELATION_NOT_ALLOWED' });
      const mysqlCatalog = catalogOf(
        PROTOTYPE_NAMES.map((n) => view(n, 'shop')),
        'mysql',
      );
      const mysql = await guardMysql({
        sql: `SELECT id FROM \`${name}\``,
        catalog: mysqlCatalog,
        policy: policyOf(false),
        rowCap: 10,
      });
      expect(mysql, name).toMatchObject({ allowed: false, code: 'RELATION_NOT_ALLOWED' });
    }
  });
});

describe('RowPolicy: names a record would drop silently', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('refuses to list %s', (name) => {
    const parsed = v.safeParse(RowPolicy, JSON.parse(`{"tables": {"${name}": {"shared": true}}}`));
    expect(parsed.success).toBe(false);
    expect(parsed.issues?.[0]?.message).toMatch(/cannot list a relation named/);
  });

  it('lists other Object.prototype names as any name', () => {
    const parsed = v.parse(RowPolicy, { tables: { toString: { shared: true } }, scope_required: true });
    expect(Object.hasOwn(parsed.tables, 'toString')).toBe(true);
    expect(parsed.scope_required).toBe(true);
  });
});

describe('samples of columns named after Object.prototype members', () => {
  const parts: CatalogRelation = {
    ...view('parts'),
    kind: 'table',
    columns: [
      { name: 'id', kind: 'integer', nativeType: 'integer', nullable: false },
      { name: 'constructor', kind: 'text', nativeType: 'text', nullable: false },
      { name: 'toString', kind: 'text', nativeType: 'text', nullable: false },
    ],
    samples: {},
  };

  it('builds the builtin engine’s lexicon and a model prompt without samples for them', () => {
    const catalog = catalogOf([parts]);
    expect(() => buildLexicon(catalog, 'org_id')).not.toThrow();
    const lexicon = buildLexicon(catalog, 'org_id');
    const columns = lexicon.relations.get('public.parts')?.columns ?? [];
    for (const column of columns) expect(Array.isArray(column.samples), column.name).toBe(true);
    expect(renderRelation(catalog, parts, 'org_id')).not.toContain('values:');
  });
});
