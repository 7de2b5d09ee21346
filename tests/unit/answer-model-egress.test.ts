// Data egress per database (docs/model-engines.md "Data egress"): what reaches a model provider,
// read from the requests each model engine sent on its wire (the OpenAI-compatible engine to a
// recording server, Bedrock to a scripted HTTP/2 Converse server). `schema_only` sends no sample
// value and no result row (the service writes the answer); `aggregates` sends rows only when
// every column is an aggregate; redacted columns appear in no prompt, sample or row.
import {
  DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EgressRequest, rowsMayReachModel } from '#lib/answer/egress.ts';
import type { Engine } from '#lib/answer/engine.ts';
import { createBedrockEngine } from '#lib/answer/engines/bedrock.ts';
import { createOpenAiEngine } from '#lib/answer/engines/openai.ts';
import { answerQuestion } from '#lib/answer/orchestrator.ts';
import type { Connector, QueryResult } from '#lib/connectors/types.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { shopCatalog } from '../fixtures/catalogs/shop.ts';
import { useFakeOpenAi } from '../helpers/engines.ts';
import { converseText, type FakeBedrock, startFakeBedrock } from '../helpers/fake-bedrock.ts';
import { reply } from '../helpers/fake-openai.ts';
import { answerRequest, testDatabase } from '../helpers/orchestrator.ts';

const ddb = mockClient(DynamoDBDocumentClient);
const fake = useFakeOpenAi();
let bedrock: FakeBedrock;
beforeAll(async () => {
  bedrock = await startFakeBedrock();
});
afterAll(async () => {
  await bedrock?.close();
});
beforeEach(() => {
  ddb.reset();
  ddb.on(TransactWriteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ddb.on(GetCommand).resolves({});
  bedrock.reset();
});

/** The rows a query returns here, whatever it is: a secret-looking email and a count. */
const connector = (
  result: Omit<QueryResult, 'executionMs'>,
  dialect: Catalog['dialect'] = 'postgres',
): Connector => ({
  dialect,
  test: async () => undefined,
  introspect: async () => shopCatalog,
  execute: async () => ({ ...result, executionMs: 1 }),
  close: async () => undefined,
});

interface Recorded {
  /** The proposal prompts (system + messages). */
  proposals: string[];
  /** The prompts of the calls that write the answer from the rows. */
  compositions: string[];
}

interface Wire {
  name: string;
  engine: () => Engine;
  script: (reply: string) => void;
  recorded: () => Recorded;
}

const wires: Wire[] = [
  {
    name: 'OpenAI-compatible',
    engine: () => createOpenAiEngine({ baseUrl: fake.baseUrl, apiKey: 'sk-test', model: 'gpt-test' }),
    script: (text) => fake.respond(reply(JSON.parse(text))),
    recorded: () => {
      const text = (request: (typeof fake.requests)[number]) =>
        request.body.messages.map((m) => m.content).join('\n');
      return {
        proposals: fake.requests.filter((r) => r.body.stream !== true).map(text),
        compositions: fake.requests.filter((r) => r.body.stream === true).map(text),
      };
    },
  },
  {
    name: 'Bedrock (Converse over HTTP/2)',
    engine: () => createBedrockEngine({ model: 'anthropic.claude-test-v1:0', client: bedrock.client() }),
    script: (text) => bedrock.respond(text),
    recorded: () => ({
      proposals: bedrock.requests.filter((r) => r.path.endsWith('/converse')).map(converseText),
      compositions: bedrock.requests.filter((r) => r.path.endsWith('/converse-stream')).map(converseText),
    }),
  },
];

const sqlReply = (sql: string) => JSON.stringify({ kind: 'sql', sql, description: 'Reading customers' });

const ask = async (
  wire: Wire,
  database: DatabaseRecord,
  sql: string,
  result: Omit<QueryResult, 'executionMs'>,
  question = 'Which gold tier customers from Germany do we have?',
  catalog: Catalog = shopCatalog,
) => {
  wire.script(sqlReply(sql));
  const { answer } = await answerQuestion(
    answerRequest({ engine: wire.engine(), database, catalog, question }),
    { connectorFor: async () => connector(result, catalog.dialect) },
  );
  return { answer, ...wire.recorded() };
};

const emails = {
  columns: ['name', 'email'],
  rows: [{ name: 'Ada', email: 'ada.secret@example.com' }],
};
const count = { columns: ['customers'], rows: [{ customers: 12 }] };

describe.each(wires)('data egress, $name engine', (wire) => {
  it('sends samples and rows by default (the control for the cases below)', { timeout: 30_000 }, async () => {
    const { proposals, compositions } = await ask(
      wire,
      testDatabase(),
      'SELECT name, email FROM customers',
      emails,
    );

    expect(proposals[0]).toContain('"Germany"');
    expect(compositions).toHaveLength(1);
    expect(compositions[0]).toContain('ada.secret@example.com');
  });

  it('schema_only: no sample value in the prompt, no row to any provider, the answer written by the service', async () => {
    const database = { ...testDatabase(), modelData: 'schema_only' as const };

    const { answer, proposals, compositions } = await ask(
      wire,
      database,
      'SELECT name, email FROM customers',
      emails,
    );

    expect(proposals).toHaveLength(1);
    for (const value of ['"Germany"', '"gold"', '"cancelled"', '"Berlin"'])
      expect(proposals[0]).not.toContain(value);
    expect(compositions).toHaveLength(0);
    expect(answer.message).not.toBe('');
    expect(answer.results).toEqual(emails.rows);
  });

  it('aggregates: rows of a count reach the model, rows of a list do not', async () => {
    const database = { ...testDatabase(), modelData: 'aggregates' as const };

    const counted = await ask(wire, database, 'SELECT count(*) AS customers FROM customers', count);
    expect(counted.compositions).toHaveLength(1);
    expect(counted.compositions[0]).toContain('12');

    fake.reset();
    bedrock.reset();
    const listed = await ask(wire, database, 'SELECT name, email FROM customers', emails);
    expect(listed.compositions).toHaveLength(0);
    expect(JSON.stringify(listed)).toContain('ada.secret@example.com'); // the caller still gets its rows
  });

  it('a redacted column is in no prompt, sample or row sent to a model', async () => {
    const database = {
      ...testDatabase(),
      redactedColumns: ['customers.email', 'public.employees.email', 'customers.country'],
    };

    const { proposals, compositions, answer } = await ask(
      wire,
      database,
      'SELECT name, email FROM customers',
      emails,
    );

    expect(proposals[0]).not.toMatch(/\bemail\b/);
    expect(proposals[0]).not.toMatch(/\bcountry\b/);
    expect(proposals[0]).not.toContain('"Germany"');
    // A query that reads a redacted column has its answer written by the service.
    expect(compositions).toHaveLength(0);
    expect(answer.results).toEqual(emails.rows);
  });

  it('a redacted column under an alias never reaches a model either; other queries still compose', async () => {
    const database = { ...testDatabase(), redactedColumns: ['customers.email'] };
    const aliased = {
      columns: ['name', 'contact'],
      rows: [{ name: 'Ada', contact: 'ada.secret@example.com' }],
    };

    const hidden = await ask(wire, database, 'SELECT name, email AS contact FROM customers', aliased);
    expect(hidden.compositions).toHaveLength(0);

    fake.reset();
    bedrock.reset();
    const shown = await ask(wire, database, 'SELECT count(*) AS customers FROM customers', count);
    expect(shown.compositions).toHaveLength(1);
    expect(shown.compositions[0]).not.toContain('ada.secret@example.com');
  });
});

const mysqlCatalog = { ...shopCatalog, dialect: 'mysql' as const };

/** One row whose only column carries the secret, however the query produced it. */
const secretRow = { columns: ['contact'], rows: [{ contact: '(1,7,Ada,ada.secret@example.com)' }] };

describe.each(wires)('data egress decided from the guarded SQL, $name engine', (wire) => {
  const redacted = { ...testDatabase(), redactedColumns: ['customers.email'] };
  const aggregated = { ...testDatabase(), modelData: 'aggregates' as const };
  const names = { columns: ['n', 'm'], rows: [{ n: 'Zoe Secretname', m: 'Ada Secretname' }] };

  it.each([
    ['whole row', 'SELECT c AS contact FROM customers c'],
    ['whole row as text', 'SELECT c::text AS contact FROM customers c'],
    ['row_to_json', 'SELECT row_to_json(c) AS contact FROM customers c'],
    ['to_jsonb', 'SELECT to_jsonb(c) AS contact FROM customers c'],
    ['string_agg of rows', "SELECT string_agg(c::text, ', ') AS contact FROM customers c"],
    ['unicode-escaped name', 'SELECT U&"\\0065mail" AS contact FROM customers'],
    ['renamed by a column list', 'SELECT s.x AS contact FROM (SELECT * FROM customers) AS s(a, b, c, x)'],
  ])('PostgreSQL: a redacted column read through a %s is worded by the service', async (_shape, sql) => {
    const { compositions, answer } = await ask(wire, redacted, sql, secretRow);
    expect(compositions).toHaveLength(0);
    expect(answer.results).toEqual(secretRow.rows); // the caller still gets its rows
  });

  it('PostgreSQL: other queries on the same database still reach the model', async () => {
    const { compositions } = await ask(wire, redacted, 'SELECT name AS contact FROM customers c', {
      columns: ['contact'],
      rows: [{ contact: 'Ada' }],
    });
    expect(compositions).toHaveLength(1);
    expect(compositions[0]).toContain('Ada');
  });

  it('PostgreSQL, aggregates: min/max of text and max of a whole row are worded by the service; numeric aggregates are not', async () => {
    const texts = await ask(wire, aggregated, 'SELECT max(name) AS n, min(name) AS m FROM customers', names);
    expect(texts.compositions).toHaveLength(0);
    fake.reset();
    bedrock.reset();
    const rows = await ask(
      wire,
      { ...aggregated, redactedColumns: ['customers.email'] },
      'SELECT max(c::text) AS contact FROM customers c',
      secretRow,
    );
    expect(rows.compositions).toHaveLength(0);
    fake.reset();
    bedrock.reset();
    const spread = { columns: ['spread'], rows: [{ spread: 41.5 }] };
    const numeric = await ask(
      wire,
      aggregated,
      'SELECT max(price) - min(price) AS spread FROM products',
      spread,
    );
    expect(numeric.compositions).toHaveLength(1);
    expect(numeric.compositions[0]).toContain('41.5');
  });

  it('MySQL, aggregates: MIN/MAX of text are worded by the service; numeric aggregates are not', async () => {
    const texts = await ask(
      wire,
      aggregated,
      'SELECT MAX(name) AS n, MIN(name) AS m FROM customers',
      names,
      undefined,
      mysqlCatalog,
    );
    expect(texts.compositions).toHaveLength(0);
    expect(texts.answer.results).toEqual(names.rows);
    fake.reset();
    bedrock.reset();
    const counted = await ask(
      wire,
      aggregated,
      'SELECT COUNT(*) AS customers FROM customers',
      count,
      undefined,
      mysqlCatalog,
    );
    expect(counted.compositions).toHaveLength(1);
    expect(counted.compositions[0]).toContain('12');
  });

  it('MySQL: a * over a relation with a redacted column is worded by the service; a named column is not', async () => {
    const star = await ask(
      wire,
      redacted,
      'SELECT s.* FROM (SELECT * FROM customers) AS s',
      emails,
      undefined,
      mysqlCatalog,
    );
    expect(star.compositions).toHaveLength(0);
    fake.reset();
    bedrock.reset();
    const named = await ask(
      wire,
      redacted,
      'SELECT `name` AS contact FROM customers',
      { columns: ['contact'], rows: [{ contact: 'Ada' }] },
      undefined,
      mysqlCatalog,
    );
    expect(named.compositions).toHaveLength(1);
    expect(named.compositions[0]).toContain('Ada');
  });
});

/** The decision for `sql` as the guard of `dialect` prints it for tenant 3 (what the orchestrator decides from). */
const decided = async (
  dialect: 'postgres' | 'mysql',
  sql: string,
  database: Pick<EgressRequest, 'modelData' | 'redactedColumns'>,
): Promise<boolean> => {
  const catalog = dialect === 'mysql' ? mysqlCatalog : shopCatalog;
  const guard = dialect === 'mysql' ? guardMysql : guardPostgres;
  const outcome = await guard({
    sql,
    catalog,
    policy: effectivePolicy(testDatabase()),
    tenant: 3,
    rowCap: 100,
  });
  if (!outcome.allowed) throw new Error(`the guard refused ${sql}: ${outcome.message}`);
  return rowsMayReachModel({ sql: outcome.sql, dialect, catalog, ...database });
};

const redactedEmail = { redactedColumns: ['customers.email'] };
const aggregates = { modelData: 'aggregates' as const };

describe('rowsMayReachModel on the guarded SQL', () => {
  it.each([
    ['SELECT name FROM customers c', true],
    ['SELECT count(*) AS n FROM customers', true],
    ['SELECT p.* FROM products p', true],
    ['SELECT s.name FROM (SELECT * FROM customers) AS s', true],
    ['WITH w AS (SELECT * FROM customers) SELECT w.name, w.city FROM w', true],
    ['SELECT name, email FROM customers', false],
    ['SELECT name, email AS contact FROM customers', false],
    ['SELECT name, U&"\\0065mail" AS contact FROM customers', false],
    ['SELECT c AS contact FROM customers c', false],
    ['SELECT c::text AS contact FROM customers c', false],
    ['SELECT row_to_json(c) AS contact FROM customers c', false],
    ['SELECT to_jsonb(c) AS contact FROM customers c', false],
    ['SELECT row_to_json(c.*) AS contact FROM customers c', false],
    ["SELECT string_agg(c::text, ', ') AS contact FROM customers c", false],
    ['SELECT (c).name FROM customers c', false],
    ['SELECT * FROM customers', false],
    ['SELECT c.* FROM customers c', false],
    ['SELECT s.x FROM (SELECT * FROM customers) AS s(a, b, c, x)', false],
    ['WITH w AS (SELECT * FROM customers) SELECT w FROM w', false],
    ['SELECT count(*) AS n FROM customers c JOIN employees e USING (email)', false],
    ['SELECT c.name FROM customers c NATURAL JOIN employees e', false],
  ])('PostgreSQL, customers.email redacted: %s → %s', async (sql, expected) => {
    expect(await decided('postgres', sql, redactedEmail)).toBe(expected);
  });

  it.each([
    ['SELECT `name` FROM customers c', true],
    ['SELECT COUNT(*) AS n FROM customers', true],
    ['SELECT p.* FROM products p', true],
    ['SELECT s.name FROM (SELECT * FROM customers) AS s', true],
    ['SELECT name, `email` AS contact FROM customers', false],
    ['SELECT name, c.`EMAIL` AS contact FROM customers c', false],
    ['SELECT * FROM customers', false],
    ['SELECT c.* FROM customers c', false],
    ['SELECT s.* FROM (SELECT * FROM customers) AS s', false],
    ['SELECT COUNT(*) AS n FROM customers c JOIN employees e USING (email)', false],
  ])('MySQL, customers.email redacted: %s → %s', async (sql, expected) => {
    expect(await decided('mysql', sql, redactedEmail)).toBe(expected);
  });

  it.each([
    ['SELECT count(*) AS n FROM orders', true],
    [
      "SELECT count(*) AS n, count(DISTINCT customer_id) AS buyers FROM orders WHERE status = 'shipped'",
      true,
    ],
    ['SELECT sum(price) AS total, avg(price) AS mean, stddev(price) AS spread FROM products', true],
    ['SELECT max(price) - min(price) AS spread, round(avg(price), 2) AS mean FROM products', true],
    ['SELECT count(*)::float / 2 AS half FROM orders', true],
    ['SELECT max(name) AS n, min(name) AS m FROM customers', false],
    ['SELECT max(c::text) AS contact FROM customers c', false],
    ['SELECT max(created_at) AS latest FROM customers', false],
    ["SELECT string_agg(name, ', ') AS names FROM customers", false],
    ['SELECT array_agg(name) AS names FROM customers', false],
    ['SELECT json_agg(name) AS names FROM customers', false],
    ['SELECT count(*) FROM orders GROUP BY status', false],
    ['SELECT status, count(*) FROM orders GROUP BY status', false],
    ['SELECT name FROM customers', false],
    ['SELECT count(*) FROM orders UNION SELECT count(*) FROM customers', false],
    ['WITH w AS (SELECT name FROM customers) SELECT count(*) FROM w', false],
    ['SELECT count(*) OVER () FROM orders', false],
    ['SELECT max(price) AS n FROM (SELECT name AS price FROM customers) AS s', false],
    ['WITH w(price) AS (SELECT name FROM customers) SELECT max(price) FROM w', false],
    ['SELECT max(price) FROM (SELECT name FROM customers) AS s(price)', false],
  ])('PostgreSQL, aggregates: %s → %s', async (sql, expected) => {
    expect(await decided('postgres', sql, aggregates)).toBe(expected);
  });

  it.each([
    ['SELECT COUNT(*) AS n FROM orders', true],
    ['SELECT SUM(price) AS total, AVG(price) AS mean FROM products', true],
    ['SELECT MAX(price) - MIN(price) AS spread, ROUND(AVG(price), 2) AS mean FROM products', true],
    ['SELECT MAX(name) AS n, MIN(name) AS m FROM customers', false],
    ['SELECT MAX(created_at) AS latest FROM customers', false],
    ["SELECT GROUP_CONCAT(name SEPARATOR ', ') AS names FROM customers", false],
    ['SELECT JSON_ARRAYAGG(name) AS names FROM customers', false],
    ['SELECT status, COUNT(*) FROM orders GROUP BY status', false],
    ['SELECT name FROM customers', false],
    ['SELECT COUNT(*) FROM orders UNION SELECT COUNT(*) FROM customers', false],
    ['SELECT MAX(price) AS n FROM (SELECT name AS price FROM customers) AS s', false],
  ])('MySQL, aggregates: %s → %s', async (sql, expected) => {
    expect(await decided('mysql', sql, aggregates)).toBe(expected);
  });

  it('schema_only never sends rows, whatever the query', async () => {
    expect(await decided('postgres', 'SELECT count(*) FROM orders', { modelData: 'schema_only' })).toBe(
      false,
    );
    expect(await decided('mysql', 'SELECT COUNT(*) FROM orders', { modelData: 'schema_only' })).toBe(false);
  });
});
