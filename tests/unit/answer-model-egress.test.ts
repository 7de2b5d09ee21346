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
import type { Engine } from '#lib/answer/engine.ts';
import { createBedrockEngine } from '#lib/answer/engines/bedrock.ts';
import { createOpenAiEngine } from '#lib/answer/engines/openai.ts';
import { answerQuestion, onlyAggregateColumns } from '#lib/answer/orchestrator.ts';
import type { Connector, QueryResult } from '#lib/connectors/types.ts';
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
const connector = (result: Omit<QueryResult, 'executionMs'>): Connector => ({
  dialect: 'postgres',
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
) => {
  wire.script(sqlReply(sql));
  const { answer } = await answerQuestion(
    answerRequest({ engine: wire.engine(), database, catalog: shopCatalog, question }),
    { connectorFor: async () => connector(result) },
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

describe('onlyAggregateColumns', () => {
  it.each([
    ['SELECT count(*) AS n FROM orders', true],
    ["SELECT sum(total) AS revenue, avg(total) AS mean FROM orders WHERE status = 'paid'", true],
    ['SELECT count(*) FROM orders GROUP BY status', false],
    ['SELECT status, count(*) FROM orders', false],
    ['SELECT name FROM customers', false],
    ['SELECT count(*) FROM a UNION SELECT name FROM b', false],
    ['SELECT max(total) - min(total) AS spread FROM orders', true],
  ])('%s → %s', (sql, expected) => {
    expect(onlyAggregateColumns(sql)).toBe(expected);
  });
});
