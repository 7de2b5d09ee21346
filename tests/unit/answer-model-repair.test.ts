// Repair after a guard refusal a model can fix (lib/answer/orchestrator.ts, docs/model-engines.md
// "Repair"): the answering flow with the real PostgreSQL guard and each model engine on its
// wire (the OpenAI-compatible engine against a recording server, Bedrock against a scripted
// HTTP/2 Converse server). A query naming a relation that does not exist, or one that does not
// parse, gets one repair round carrying the guard's message; a second refusal is the answer;
// a refusal no rewrite can fix (a relation the policy keeps out) gets none.
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
import { answerQuestion } from '#lib/answer/orchestrator.ts';
import type { Connector, QueryResult } from '#lib/connectors/types.ts';
import { shopCatalog } from '../fixtures/catalogs/shop.ts';
import { useFakeOpenAi } from '../helpers/engines.ts';
import { converseText, type FakeBedrock, startFakeBedrock } from '../helpers/fake-bedrock.ts';
import { reply } from '../helpers/fake-openai.ts';
import { answerRequest, storedMessages, testDatabase } from '../helpers/orchestrator.ts';

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

const ran: string[] = [];
const connector: Connector = {
  dialect: 'postgres',
  test: async () => undefined,
  introspect: async () => shopCatalog,
  execute: async (sql: string): Promise<QueryResult> => {
    ran.push(sql);
    return { columns: ['n'], rows: [{ n: 7 }], executionMs: 1 };
  },
  close: async () => undefined,
};

const sqlReply = (sql: string) => JSON.stringify({ kind: 'sql', sql, description: 'Counting orders' });

interface Wire {
  name: string;
  engine: () => Engine;
  /** Queues the model's replies to the proposal and repair calls. */
  script: (...replies: string[]) => void;
  /** The prompts the provider received for proposals and repairs (not compositions). */
  prompts: () => string[];
}

const wires: Wire[] = [
  {
    name: 'OpenAI-compatible',
    engine: () => createOpenAiEngine({ baseUrl: fake.baseUrl, apiKey: 'sk-test', model: 'gpt-test' }),
    script: (...replies) => fake.respond(...replies.map((text) => reply(JSON.parse(text)))),
    prompts: () =>
      fake.requests
        .filter((request) => request.body.stream !== true)
        .map((request) => request.body.messages.map((m) => m.content).join('\n')),
  },
  {
    name: 'Bedrock (Converse over HTTP/2)',
    engine: () => createBedrockEngine({ model: 'anthropic.claude-test-v1:0', client: bedrock.client() }),
    script: (...replies) => bedrock.respond(...replies),
    prompts: () => bedrock.requests.filter((request) => request.path.endsWith('/converse')).map(converseText),
  },
];

const ask = (engine: Engine, database = testDatabase()) =>
  answerQuestion(
    answerRequest({ engine, database, catalog: shopCatalog, question: 'How many orders are there?' }),
    {
      connectorFor: async () => connector,
    },
  );

describe.each(wires)('repair after a guard refusal, $name engine', (wire) => {
  beforeEach(() => {
    ran.length = 0;
  });

  // The first answer loads the guard's parser and the tokenizer.
  it('asks once more with the guard’s message after an unknown relation, and runs the fixed query', {
    timeout: 30_000,
  }, async () => {
    wire.script(
      sqlReply('SELECT count(*) AS n FROM purchases'),
      sqlReply('SELECT count(*) AS n FROM orders'),
    );

    const { answer } = await ask(wire.engine());

    expect(answer.query_type).toBe('sql');
    expect(answer.sql).toBe('SELECT count(*) AS n FROM orders');
    expect(answer.results).toEqual([{ n: 7 }]);
    const prompts = wire.prompts();
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain('UNKNOWN_RELATION');
    expect(prompts[1]).toMatch(/Unknown relation public\.purchases/);
    expect(ran).toHaveLength(1);
    const stored = storedMessages(ddb.commandCalls(TransactWriteCommand) as never);
    expect(stored.at(-1)?.metadata).toMatchObject({ repaired: true });
  });

  it('repairs a query that does not parse', async () => {
    wire.script(sqlReply('SELECT count(* AS n FROM orders'), sqlReply('SELECT count(*) AS n FROM orders'));

    const { answer } = await ask(wire.engine());

    expect(answer.query_type).toBe('sql');
    expect(wire.prompts()[1]).toContain('PARSE_ERROR');
  });

  it('repairs at most once: a second refusal is the answer', async () => {
    wire.script(
      sqlReply('SELECT count(*) AS n FROM purchases'),
      sqlReply('SELECT count(*) AS n FROM purchase'),
    );

    const { answer } = await ask(wire.engine());

    expect(answer.query_type).toBe('refused');
    expect(wire.prompts()).toHaveLength(2);
    expect(ran).toHaveLength(0);
  });

  it('does not repair a refusal no rewrite may fix: a relation the policy keeps out', async () => {
    // The policy refuses `organizations` (no tenant column and not shared).
    wire.script(sqlReply('SELECT count(*) AS n FROM pg_catalog.pg_class'));

    const { answer } = await ask(wire.engine());

    expect(answer.query_type).toBe('refused');
    expect(wire.prompts()).toHaveLength(1);
  });
});
