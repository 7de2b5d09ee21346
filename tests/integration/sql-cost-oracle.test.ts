// Cost decisions never depend on literal values (docs/design.md "Isolation against an attacker:
// second round"), on PGlite, on a PostgreSQL server (TABLETALK_TEST_POSTGRES_URL) and on
// MySQL/MariaDB (TABLETALK_TEST_MYSQL_URL), through the real connectors with the default ceiling.
// Tenant 1 has no customer in Kyoto; tenant 2 has thousands. The review's reproduction: as tenant
// 1, `SELECT count(*) FROM customers a, customers b, customers c WHERE a.city = 'Kyoto'` was
// refused for cost while the same query on a city nobody has answered [{count: 0}], which told
// tenant 1 that Kyoto is common among the others. The bisection variant moves a literal bound
// (`a.id < N`) and a city through many values to find where the decision flips. Every probe of
// one shape must get the same decision, whatever its literals, including a literal inside an
// ORDER BY, GROUP BY or LIMIT subquery. On PostgreSQL and PGlite a statement made unpreparable on
// purpose (`AND 'x' IS NOT NULL`) is refused like the plain cross join, not run without a ceiling.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnector } from '#lib/connectors/index.ts';
import type { Connector } from '#lib/connectors/types.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import type { EffectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { introspectPostgres } from '#lib/dialects/postgres/introspect.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import type { Guard } from '#lib/sql/types.ts';
import { MYSQL_URL, openAdmin, uniqueName } from './sql-mysql-harness.ts';

const POSTGRES_URL = process.env.TABLETALK_TEST_POSTGRES_URL;
const MAX_COST = 1e7;
const OWN_ROWS = 3_000;
const KYOTO_ROWS = 20_000;

const SCHEMA = `CREATE TABLE customers (id integer PRIMARY KEY, org_id integer NOT NULL, city varchar(40) NOT NULL)`;
/** Tenant 1: OWN_ROWS customers in Osaka and Nara; tenant 2: KYOTO_ROWS customers in Kyoto. */
const rows = (): string[] => {
  const values: string[] = [];
  for (let id = 1; id <= OWN_ROWS; id += 1) values.push(`(${id}, 1, '${id % 2 ? 'Osaka' : 'Nara'}')`);
  for (let id = OWN_ROWS + 1; id <= OWN_ROWS + KYOTO_ROWS; id += 1) values.push(`(${id}, 2, 'Kyoto')`);
  return values;
};
const insertStatements = (): string[] => {
  const all = rows();
  const statements: string[] = [];
  for (let at = 0; at < all.length; at += 1_000)
    statements.push(
      `INSERT INTO customers (id, org_id, city) VALUES ${all.slice(at, at + 1_000).join(', ')}`,
    );
  return statements;
};

const policy: EffectivePolicy = {
  requiresScoping: true,
  tenantColumn: 'org_id',
  scopeRequired: false,
  tables: {},
};

/** The probes of one shape: the reproduction's cities, and a bisection over a literal bound. */
const SHAPES: { name: string; probes: string[] }[] = [
  {
    name: 'the review’s cross join, Kyoto against a city nobody has',
    probes: ['Kyoto', 'Nowhere', 'Osaka'].map(
      (city) => `SELECT count(*) AS n FROM customers a, customers b, customers c WHERE a.city = '${city}'`,
    ),
  },
  {
    name: 'the cross join bisected over a bound on id',
    probes: [3_010, 3_100, 3_500, 5_000, 8_000, 12_000, 16_000, 23_000].map(
      (bound) =>
        `SELECT count(*) AS n FROM customers a, customers b, customers c WHERE a.city = 'Kyoto' AND a.id < ${bound}`,
    ),
  },
  {
    name: 'the cross join bisected over the city compared with',
    probes: ['A', 'Kyoto', 'Kyotp', 'L', 'Nara', 'Osaka', 'Z'].map(
      (city) => `SELECT count(*) AS n FROM customers a, customers b, customers c WHERE a.city >= '${city}'`,
    ),
  },
  // A literal inside ORDER BY / GROUP BY / LIMIT is a value too, not a position or a row count.
  {
    name: 'a city compared inside an ORDER BY subquery',
    probes: ['Kyoto', 'Nowhere', 'Osaka'].map(
      (city) =>
        `SELECT a.id FROM customers a ORDER BY (SELECT count(*) FROM customers b, customers c, customers d WHERE b.city = '${city}') LIMIT 1`,
    ),
  },
  {
    name: 'a city compared inside a GROUP BY subquery',
    probes: ['Kyoto', 'Nowhere', 'Osaka'].map(
      (city) =>
        `SELECT count(*) AS n FROM customers a GROUP BY a.id, (SELECT count(*) FROM customers b, customers c, customers d WHERE b.city = '${city}')`,
    ),
  },
  {
    name: 'a city compared inside a LIMIT subquery',
    probes: ['Kyoto', 'Nowhere', 'Osaka'].map(
      (city) =>
        `SELECT a.id FROM customers a LIMIT (SELECT count(*) FROM customers b, customers c, customers d WHERE b.city = '${city}')`,
    ),
  },
];

/**
 * Statements made unpreparable with untyped parameters (a constant whose type nothing decides):
 * each is refused for cost like the plain cross join, never run without a ceiling.
 */
const UNPREPARABLE = [
  `SELECT count(*) AS n FROM customers a, customers b, customers c WHERE a.city = 'Nowhere'`,
  `SELECT count(*) AS n FROM customers a, customers b, customers c WHERE a.city = 'Nowhere' AND 'x' = 'x'`,
  `SELECT count(*) AS n, 'x' || 'y' AS t FROM customers a, customers b, customers c`,
  `SELECT count(*) AS n, 'x' AS t FROM customers a, customers b, customers c WHERE a.city = 'Nowhere'`,
  `SELECT count(*) AS n FROM customers a, customers b, customers c WHERE a.city = 'Nowhere' AND 'x' IS NOT NULL`,
  `SELECT count(*) AS n FROM customers a, customers b, customers c WHERE a.city = 'Nowhere' GROUP BY 'k'`,
];

interface Target {
  guard: Guard;
  connector: () => Connector;
  catalog: () => Catalog;
}

/** 'refused' when the ceiling refused the probe, 'ran' when it ran (whatever it returned or how it ended). */
const decisionOf = async (target: Target, sql: string): Promise<string> => {
  const outcome = await target.guard({ sql, catalog: target.catalog(), policy, tenant: 1, rowCap: 100 });
  if (!outcome.allowed) return `guard:${outcome.code}`;
  try {
    await target.connector().execute(outcome.sql, outcome.params, { timeoutMs: 2_000, maxCost: MAX_COST });
    return 'ran';
  } catch (error) {
    const detail = (error as { detail?: string }).detail;
    return detail === 'QUERY_TOO_EXPENSIVE' ? 'refused' : 'ran';
  }
};

const checkShapes = (target: Target, engine: 'postgres' | 'mysql') => {
  if (engine === 'postgres')
    it('refuses a cross join made unpreparable on purpose, as it refuses the plain one', async () => {
      const decisions: Record<string, string> = {};
      for (const probe of UNPREPARABLE) decisions[probe] = await decisionOf(target, probe);
      expect(Object.values(decisions), JSON.stringify(decisions, null, 1)).toEqual(
        UNPREPARABLE.map(() => 'refused'),
      );
    }, 120_000);
  for (const shape of SHAPES) {
    it(`decides ${shape.name} the same for every literal`, async () => {
      const decisions: Record<string, string> = {};
      for (const probe of shape.probes) decisions[probe] = await decisionOf(target, probe);
      expect(new Set(Object.values(decisions)).size, JSON.stringify(decisions, null, 1)).toBe(1);
    }, 120_000);
  }
};

describe('cost decisions on PGlite', () => {
  let connector: Connector;
  let catalog: Catalog;
  beforeAll(async () => {
    const seedFile = join(tmpdir(), `${uniqueName('cost_oracle')}.sql`);
    writeFileSync(seedFile, [SCHEMA, ...insertStatements(), 'ANALYZE'].map((s) => `${s};`).join('\n'));
    connector = await createConnector({ engine: 'pglite', url: 'memory:', seedFile });
    catalog = await connector.introspect({ policy });
  }, 120_000);
  afterAll(() => connector?.close());
  checkShapes({ guard: guardPostgres, connector: () => connector, catalog: () => catalog }, 'postgres');
});

describe.runIf(POSTGRES_URL)('cost decisions on a PostgreSQL server', () => {
  let connector: Connector;
  let catalog: Catalog;
  let admin: pg.Client;
  const name = uniqueName('tt_cost');
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(POSTGRES_URL as string);
    url.pathname = `/${name}`;
    const seeding = new pg.Client({ connectionString: url.toString() });
    await seeding.connect();
    for (const statement of [SCHEMA, ...insertStatements(), 'ANALYZE']) await seeding.query(statement);
    catalog = await introspectPostgres(
      async (sql, params = []) => (await seeding.query(sql, [...params])).rows,
      {
        policy,
      },
    );
    await seeding.end();
    connector = await createConnector({ engine: 'postgres', url: url.toString() });
  }, 120_000);
  afterAll(async () => {
    await connector?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  });
  checkShapes({ guard: guardPostgres, connector: () => connector, catalog: () => catalog }, 'postgres');
});

describe.runIf(MYSQL_URL)('cost decisions on MySQL/MariaDB', () => {
  let connector: Connector;
  let catalog: Catalog;
  const name = uniqueName('tt_cost');
  beforeAll(async () => {
    const admin = await openAdmin(MYSQL_URL as string);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.query(`USE ${name}`);
    for (const statement of [SCHEMA, ...insertStatements(), 'ANALYZE TABLE customers'])
      await admin.query(statement);
    await admin.end();
    const url = new URL(MYSQL_URL as string);
    url.pathname = `/${name}`;
    connector = await createConnector({ engine: 'mysql', url: url.toString() });
    catalog = await connector.introspect({ policy });
  }, 120_000);
  afterAll(async () => {
    await connector?.close();
    const admin = await openAdmin(MYSQL_URL as string);
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  });
  checkShapes({ guard: guardMysql, connector: () => connector, catalog: () => catalog }, 'mysql');
});
