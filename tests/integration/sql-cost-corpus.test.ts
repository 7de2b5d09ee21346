// The cost ceiling refuses no legitimate query (docs/design.md "Cost decisions read generic
// plans"): every query of tests/corpus/queries.jsonl the guard allows for tenant 1 runs under the
// default ceiling, on PGlite and on a PostgreSQL server (TABLETALK_TEST_POSTGRES_URL). A statement
// whose generic form cannot be prepared, untyped or typed, is refused as too expensive, so a
// query the generic-plan rewrite breaks shows up here as a refusal.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnector, defaultLimits } from '#lib/connectors/index.ts';
import type { Connector } from '#lib/connectors/types.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { corpusCatalog, corpusPolicy, corpusQueries, schemaSql } from '../corpus/postgres-oracle.ts';

const serverUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
const schemaFile = fileURLToPath(new URL('../corpus/schema.sql', import.meta.url));

/** The ids of the corpus queries refused for cost, and how many ran. */
const underCeiling = async (connector: Connector): Promise<{ refused: string[]; ran: number }> => {
  const limits = defaultLimits({ timeoutMs: 5_000 });
  expect(limits.maxCost).toBeGreaterThan(0);
  const refused: string[] = [];
  let ran = 0;
  for (const query of corpusQueries()) {
    const outcome = await guardPostgres({
      sql: query.sql,
      catalog: corpusCatalog(),
      policy: corpusPolicy(),
      tenant: 1,
      rowCap: 100,
    });
    if (!outcome.allowed) continue;
    try {
      await connector.execute(outcome.sql, outcome.params, limits);
      ran += 1;
    } catch (error) {
      if ((error as { detail?: string }).detail === 'QUERY_TOO_EXPENSIVE') refused.push(query.id);
    }
  }
  return { refused, ran };
};

describe('the cost ceiling on the legitimate corpus (PGlite)', () => {
  let connector: Connector;
  beforeAll(async () => {
    connector = await createConnector({ engine: 'pglite', url: 'memory:', seedFile: schemaFile });
  });
  afterAll(() => connector?.close());

  it('runs every corpus query the guard allows, none refused for cost', async () => {
    const { refused, ran } = await underCeiling(connector);
    expect(refused).toEqual([]);
    expect(ran).toBeGreaterThan(250);
  }, 300_000);
});

describe.runIf(serverUrl)('the cost ceiling on the legitimate corpus (PostgreSQL server)', () => {
  const name = `cost_corpus_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let connector: Connector;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl as string);
    url.pathname = `/${name}`;
    const seeding = new pg.Client({ connectionString: url.toString() });
    await seeding.connect();
    await seeding.query(schemaSql());
    await seeding.query('ANALYZE');
    await seeding.end();
    connector = await createConnector({ engine: 'postgres', url: url.toString() });
  }, 120_000);
  afterAll(async () => {
    await connector?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  });

  it('runs every corpus query the guard allows, none refused for cost', async () => {
    const { refused, ran } = await underCeiling(connector);
    expect(refused).toEqual([]);
    expect(ran).toBeGreaterThan(250);
  }, 300_000);
});
