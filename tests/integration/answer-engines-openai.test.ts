// The OpenAI-compatible engine end to end against a real PostgreSQL (PGlite holding the shop
// fixture) and the local fake model server: the proposed SQL goes through the guard, the
// guard's printed SQL runs for one tenant, and a query the database rejects gets one repair
// round with the database's own error text. No row reaches the model while it proposes (the
// answer written from the rows, lib/answer/engines/model.ts `compose`, is tested in
// tests/unit/answer-engines-openai-stream.test.ts and tests/e2e/stream.test.ts).
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineInput } from '#lib/answer/engine.ts';
import { createOpenAiEngine } from '#lib/answer/engines/openai.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { SHOP_NOW, shopCatalog, shopSql } from '../fixtures/catalogs/shop.ts';
import { type FakeOpenAi, reply, startFakeOpenAi } from '../helpers/fake-openai.ts';

const policy = effectivePolicy({
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'org_id',
  policy: { tenant_column: 'org_id', tables: { organizations: { tenant_column: 'id' } } },
});

let db: PGlite;
let fake: FakeOpenAi;

beforeAll(async () => {
  db = new PGlite();
  await db.exec(shopSql);
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
  await db.close();
});

const input = (question: string): EngineInput => ({
  question,
  catalog: shopCatalog,
  dialect: 'postgres',
  history: [],
  now: SHOP_NOW,
  tenantColumn: 'org_id',
});

type Row = Record<string, unknown>;

/** Guard the SQL for a tenant and run what the guard printed, as the orchestrator does. */
const guardAndRun = async (sql: string, tenant: number): Promise<Row[]> => {
  const outcome = await guardPostgres({ sql, catalog: shopCatalog, policy, tenant, rowCap: 100 });
  if (!outcome.allowed) throw new Error(`guard refused: ${outcome.code} ${outcome.message}`);
  return (await db.query<Row>(outcome.sql, outcome.params)).rows;
};

const engine = () => createOpenAiEngine({ baseUrl: fake.baseUrl, model: 'gpt-4o-mini', timeoutMs: 5_000 });

describe('the openai engine on a real database', () => {
  it("answers with the tenant's rows only, though the model's SQL names no tenant", async () => {
    // Arrange
    fake.reset();
    fake.respond(
      reply({
        kind: 'sql',
        sql: 'SELECT status, count(*) AS orders FROM orders GROUP BY status ORDER BY status',
        description: 'Counting orders per status',
      }),
    );
    // Act
    const proposal = await engine().propose(input('How many orders per status?'));
    const rows = await guardAndRun(proposal.kind === 'sql' ? proposal.sql : '', 1);
    // Assert: the same as a hand-written query for tenant 1, and different from tenant 2's.
    const expected = (
      await db.query<Row>(
        'SELECT status, count(*) AS orders FROM orders WHERE org_id = 1 GROUP BY status ORDER BY status',
      )
    ).rows;
    expect(rows).toEqual(expected);
    expect(rows).not.toEqual(await guardAndRun(proposal.kind === 'sql' ? proposal.sql : '', 2));
  });

  it('repairs a query the database rejected, given the error text', async () => {
    // Arrange: the model first names a column that does not exist, then corrects it.
    fake.reset();
    fake.respond(
      reply({
        kind: 'sql',
        sql: "SELECT count(*) AS n FROM orders WHERE state = 'cancelled'",
        description: 'x',
      }),
      reply({
        kind: 'sql',
        sql: "SELECT count(*) AS n FROM orders WHERE status = 'cancelled'",
        description: 'y',
      }),
    );
    const openai = engine();
    const question = input('How many cancelled orders?');
    const first = await openai.propose(question);
    const firstSql = first.kind === 'sql' ? first.sql : '';
    const error = await guardAndRun(firstSql, 1).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(error?.message).toMatch(/column "state" does not exist/);
    // Act
    const repaired = await openai.repair(question, { sql: firstSql, error: error?.message ?? '' });
    const rows = await guardAndRun(repaired.kind === 'sql' ? repaired.sql : '', 1);
    // Assert: the repair round carried the error as data; the corrected query runs.
    const repairPrompt = fake.requests[1]?.body.messages[1]?.content ?? '';
    expect(repairPrompt).toContain('<database_error>\n"column \\"state\\" does not exist"');
    const [expected] = (
      await db.query<Row>("SELECT count(*) AS n FROM orders WHERE org_id = 1 AND status = 'cancelled'")
    ).rows;
    expect(rows).toEqual([expected]);
  });

  it('never sends row contents to the model while proposing', async () => {
    fake.reset();
    fake.respond(
      reply({ kind: 'sql', sql: 'SELECT name, email FROM customers ORDER BY id LIMIT 5', description: 'x' }),
    );
    const proposal = await engine().propose(input('List five customers'));
    const rows = await guardAndRun(proposal.kind === 'sql' ? proposal.sql : '', 1);
    expect(rows.length).toBeGreaterThan(0);
    const sent = JSON.stringify(fake.requests.map((request) => request.body));
    for (const row of rows) expect(sent).not.toContain(String(row.email));
  });
});
