// The shared SQL cache and approved patterns of the model engines (lib/answer/sql-cache.ts),
// end to end over HTTP with the OpenAI-compatible engine against a scripted model server that
// counts its calls: a question a model answered for tenant 1 costs no model call when tenant 2
// asks it first in its own conversation, and answers with tenant 2's rows only; a follow-up
// still goes to the model; an approved pattern's question is answered from the pattern.
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { createConnector } from '#lib/connectors/index.ts';
import { documents, tableName } from '#lib/store/client.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { messageKey } from '#lib/store/messages.ts';
import { addPattern } from '#lib/store/patterns.ts';
import { createPersonality, type Personality } from '#lib/store/personalities.ts';
import { demoSeedFile } from '../helpers/answering.ts';
import { type FakeOpenAi, reply } from '../helpers/fake-openai.ts';
import { startScriptedModelStack } from '../helpers/scripted-model.ts';

let stack: Awaited<ReturnType<typeof startScriptedModelStack>>;
let fake: FakeOpenAi;
let gateway: Awaited<ReturnType<typeof startScriptedModelStack>>['gateway'];
let acme: Awaited<ReturnType<typeof startScriptedModelStack>>['acme'];
let shop: DatabaseRecord;
let personality: Personality;

beforeAll(async () => {
  stack = await startScriptedModelStack('gpt-cache-e2e');
  ({ fake, gateway, acme, shop } = stack);
  personality = stack.personality;
}, 120_000);

afterAll(() => stack?.close());

/** The demo shop's own count for one tenant, read directly. */
const countFor = async (tenant: number, table: string): Promise<number> => {
  const connector = await createConnector({ engine: 'pglite', url: 'memory:', seedFile: demoSeedFile });
  try {
    const { rows } = await connector.execute(
      `SELECT count(*)::int AS n FROM public.${table} WHERE org_id = ${tenant}`,
      [],
      {
        timeoutMs: 30_000,
      },
    );
    return Number(rows[0]?.n);
  } finally {
    await connector.close();
  }
};

const ask = async (tenant: string, message: string, conversation = randomUUID(), personalityId?: string) => {
  const response = await fetch(`${gateway.url}/api/v1/chat/${conversation}/message`, {
    method: 'POST',
    headers: { 'X-API-Key': acme.sk, 'X-Tenant-Id': tenant, 'Content-Type': 'application/json' },
    body: JSON.stringify({ message, database_id: shop.id, personality_id: personalityId ?? personality.id }),
  });
  const body = (await response.json()) as { data: Record<string, unknown> };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return { conversation, answer: body.data };
};

describe('the shared SQL cache', () => {
  it('answers the same first question for another tenant without a model call, with that tenant’s rows', async () => {
    // Arrange: the model writes the SQL once (and may be asked to word the answer).
    fake.reset();
    const question = 'How many customers have we got on the books?';
    fake.respond(
      reply({
        kind: 'sql',
        sql: 'SELECT count(*) AS customers FROM customers',
        description: 'Counting customers',
      }),
    );

    // Act
    const first = await ask('1', question);
    const callsAfterFirst = fake.requests.length;
    const second = await ask('2', `  how many customers have we got on the books  `);

    // Assert
    expect(first.answer.answered_by).toBe('model');
    expect(second.answer.answered_by).toBe('cache');
    expect(fake.requests.length).toBe(callsAfterFirst);
    expect(first.answer.results).toEqual([{ customers: await countFor(1, 'customers') }]);
    expect(second.answer.results).toEqual([{ customers: await countFor(2, 'customers') }]);
    expect(second.answer.sql).toBe('SELECT count(*) AS customers FROM customers');
  });

  it('asks the model again under a personality with other instructions, and the request carries them', async () => {
    fake.reset();
    const question = 'How many products are in the catalogue?';
    const answer = reply({
      kind: 'sql',
      sql: 'SELECT count(*) AS products FROM products',
      description: 'Counting products',
    });
    fake.respond(answer);
    const first = await ask('1', question);
    const formal = await createPersonality({
      organizationId: acme.organization.id,
      name: 'Formal scripted model',
      engine: 'openai',
      model: 'gpt-cache-e2e',
      instructions: 'Only count products that are in stock, and say so.',
    });
    const before = fake.requests.length;
    fake.respond(answer);

    const second = await ask('2', question, randomUUID(), formal.id);

    expect(first.answer.answered_by).toBe('model');
    expect(second.answer.answered_by).toBe('model');
    expect(fake.requests.length).toBeGreaterThan(before);
    expect(JSON.stringify(fake.requests[before]?.body.messages)).toContain(
      'Only count products that are in stock',
    );
  });

  it('asks the model again for a follow-up, whose SQL depends on the conversation', async () => {
    fake.reset();
    const question = 'And how many orders is that?';
    fake.respond(
      reply({ kind: 'sql', sql: 'SELECT count(*) AS orders FROM orders', description: 'Counting orders' }),
    );
    const opening = await ask('1', question);
    expect(opening.answer.answered_by).toBe('model');
    const before = fake.requests.length;
    fake.respond(
      reply({ kind: 'sql', sql: 'SELECT count(*) AS orders FROM orders', description: 'Counting orders' }),
    );

    const followUp = await ask('1', question, opening.conversation);

    expect(followUp.answer.answered_by).toBe('model');
    expect(fake.requests.length).toBeGreaterThan(before);
  });
});

describe('model work in usage', () => {
  it('stores the model calls and tokens with the answer and sums them in GET /organization/usage', async () => {
    const manage = (await createApiKey({ organizationId: acme.organization.id, kind: 'sk', manage: true }))
      .key;
    const usage = async () => {
      const response = await fetch(`${gateway.url}/api/v1/organization/usage`, {
        headers: { 'X-API-Key': manage },
      });
      expect(response.status).toBe(200);
      return (
        (await response.json()) as {
          data: { model: { calls: number; input_tokens: number; output_tokens: number } };
        }
      ).data.model;
    };
    const before = await usage();
    fake.reset();
    fake.respond(
      reply({ kind: 'sql', sql: 'SELECT count(*) AS stores FROM stores', description: 'Counting stores' }),
    );

    const { conversation, answer } = await ask('1', `How many stores are open ${randomUUID()}?`);

    expect(answer.answered_by).toBe('model');
    // The proposal (1,412 prompt and 58 completion tokens in the scripted reply), and the
    // composition the server refused (a call, no tokens).
    const after = await usage();
    expect(after.calls - before.calls).toBe(fake.requests.length);
    expect(after.input_tokens - before.input_tokens).toBe(1_412);
    expect(after.output_tokens - before.output_tokens).toBe(58);
    const { Item } = await documents().send(
      new GetCommand({
        TableName: tableName(),
        Key: messageKey(acme.organization.id, conversation, String(answer.message_id)),
      }),
    );
    expect(JSON.parse(String(Item?.metadataJson))).toMatchObject({
      model_calls: fake.requests.length,
      tokens: { input: 1_412, output: 58 },
    });
  });
});

describe('approved query patterns', () => {
  it('answer their own question with their SQL and no model call', async () => {
    fake.reset();
    await addPattern(shop.id, {
      question: 'Which products do we sell?',
      sql: 'SELECT count(*) AS products FROM products',
    });

    const { answer } = await ask('3', 'which products do we sell');

    expect(answer.answered_by).toBe('pattern');
    expect(fake.requests).toHaveLength(0);
    expect(answer.results).toEqual([{ products: await countFor(3, 'products') }]);
  });
});
