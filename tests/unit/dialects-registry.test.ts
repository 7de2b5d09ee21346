// The registry of dialects (lib/dialects/index.ts) and what is derived from it: the engine
// picklists, the engine → dialect lookup, each dialect's machinery loaded by name, and the
// system catalogs each dialect's row-policy decision refuses (docs/design.md "Databases as one
// seam").
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogRelation } from '#lib/core/catalog.ts';
import { effectivePolicy, relationAccess } from '#lib/core/row-policy.ts';
import {
  DIALECTS,
  dialectNamed,
  ENGINE_NAMES,
  EXAMPLE_URLS,
  engineNamed,
  SERVER_ENGINE_NAMES,
  URL_SCHEMES,
} from '#lib/dialects/index.ts';
import { guardOf, machineryOf } from '#lib/dialects/machinery.ts';
import { mysql } from '#lib/dialects/mysql/index.ts';
import { postgres } from '#lib/dialects/postgres/index.ts';
import { DatabaseCreateBody } from '#lib/manage/inputs.ts';

const table = (schema: string, name: string): CatalogRelation => ({
  schema,
  name,
  kind: 'table',
  columns: [{ name: 'org_id', kind: 'integer', nativeType: 'integer', nullable: false }],
  primaryKey: [],
  foreignKeys: [],
  rowEstimate: 0,
  samples: {},
});

const catalogOf = (dialect: string, defaultSchema: string, relations: CatalogRelation[]): Catalog => ({
  dialect,
  defaultSchema,
  relations,
  userFunctions: [],
  indexedAt: '2026-01-01T00:00:00.000Z',
});

const policy = effectivePolicy({
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'org_id',
  policy: { tables: {} },
});

describe('the registry', () => {
  it('lists the engines servers first, as the API has always documented them', () => {
    expect(ENGINE_NAMES).toEqual(['postgres', 'mysql', 'pglite']);
    expect(SERVER_ENGINE_NAMES).toEqual(['postgres', 'mysql']);
    expect(URL_SCHEMES).toEqual(['postgres:', 'postgresql:', 'memory:', 'mysql:', 'mariadb:']);
    expect(EXAMPLE_URLS).toBe(
      'postgres://user:password@host:5432/database?sslmode=verify-full, or mysql://…',
    );
  });

  it('gives the management API the engines reached by URL only', () => {
    const body = (engine: string) => ({ name: 'Shop', engine, connection: { url: 'x' } });
    expect(v.safeParse(DatabaseCreateBody, body('mysql')).success).toBe(true);
    expect(v.safeParse(DatabaseCreateBody, body('pglite')).issues?.[0]?.message).toBe(
      'engine must be postgres or mysql',
    );
  });

  it('finds the dialect of an engine and of a catalog, and refuses a name it does not know', () => {
    expect(engineNamed('pglite').dialect).toBe(postgres);
    expect(engineNamed('mysql').dialect).toBe(mysql);
    expect(dialectNamed('mysql')).toBe(mysql);
    expect(() => engineNamed('oracle')).toThrow(/No engine is named "oracle"/);
    expect(() => dialectNamed('oracle')).toThrow(/No dialect is named "oracle"/);
  });

  it.each(DIALECTS.map((dialect) => [dialect.name, dialect] as const))(
    "loads %s's machinery by name, whose guard refuses the dialect's own catalog",
    async (name, dialect) => {
      const machinery = await machineryOf(name);
      expect(await machineryOf(name)).toBe(machinery);
      const guard = await guardOf(name);
      const schema = name === 'postgres' ? 'public' : 'shop';
      const outcome = await guard({
        sql: 'SELECT table_name FROM information_schema.tables',
        catalog: catalogOf(dialect.name, schema, [table(schema, 'orders')]),
        policy,
        tenant: 1,
        rowCap: 10,
      });
      expect(outcome).toMatchObject({ allowed: false, code: 'SYSTEM_CATALOG' });
    },
  );
});

describe("each dialect's system catalogs", () => {
  const access = (
    dialect: typeof postgres,
    schema: string | undefined,
    name: string,
    relations: CatalogRelation[] = [],
  ) => relationAccess(catalogOf(dialect.name, 'public', relations), policy, schema, name, dialect);

  it('refuses PostgreSQL catalogs, qualified or resolved through the search path', () => {
    for (const [schema, name] of [
      ['pg_catalog', 'pg_authid'],
      ['information_schema', 'tables'],
      ['PG_TOAST', 'x'],
      [undefined, 'pg_class'],
    ] as const)
      expect(access(postgres, schema, name)).toMatchObject({ kind: 'refused', code: 'SYSTEM_CATALOG' });
  });

  it('refuses MySQL and MariaDB system schemas', () => {
    for (const schema of ['information_schema', 'mysql', 'performance_schema', 'SYS'])
      expect(access(mysql, schema, 'user')).toMatchObject({ kind: 'refused', code: 'SYSTEM_CATALOG' });
  });

  it("reads another dialect's system names as ordinary relations of the catalog, under the policy", () => {
    expect(access(postgres, 'sys', 'orders', [table('sys', 'orders')])).toMatchObject({
      kind: 'filtered',
      tenantColumn: 'org_id',
    });
    expect(access(postgres, 'mysql', 'user')).toMatchObject({ kind: 'refused', code: 'UNKNOWN_RELATION' });
    expect(access(mysql, undefined, 'pg_orders', [table('public', 'pg_orders')])).toMatchObject({
      kind: 'filtered',
    });
  });
});
