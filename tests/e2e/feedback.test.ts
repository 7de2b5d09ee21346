// Feedback on answers over HTTP (lib/conversations/feedback.ts): a rating of one's own answer is
// 201 and a second replaces it; another scope's answer is 404; a question is not an answer; a
// corrected SQL the guard refuses stores nothing. An up-voted answer becomes a candidate pattern,
// which changes no answer until it is approved; once approved, a model engine's next first
// question answers from it without a model call.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { findMessage } from '#lib/store/messages.ts';
import { findPattern, listPatterns } from '#lib/store/patterns.ts';
import type { Personality } from '#lib/store/personalities.ts';
import { type FakeOpenAi, reply } from '../helpers/fake-openai.ts';
import { jsonOf } from '../helpers/gateway.ts';
import { startScriptedModelStack } from '../helpers/scripted-model.ts';

let stack: Awaited<ReturnType<typeof startScriptedModelStack>>;
let fake: FakeOpenAi;
let gateway: Awaited<ReturnType<typeof startScriptedModelStack>>['gateway'];
let acme: Awaited<ReturnType<typeof startScriptedModelStack>>['acme'];
let shop: DatabaseRecord;
let model: Personality;

beforeAll(async () => {
  stack = await startScriptedModelStack('gpt-feedback-e2e');
  ({ fake, gateway, acme, shop } = stack);
  model = stack.personality;
}, 120_000);

afterAll(() => stack?.close());

const headers = (scope: string) => ({
  'X-API-Key': acme.sk,
  'X-Tenant-Id': '1',
  'X-Scope-Id': scope,
  'Content-Type': 'application/json',
});

const ask = async (scope: string, message: string, extra: Record<string, unknown> = {}) => {
  const conversation = randomUUID();
  const response = await fetch(`${gateway.url}/api/v1/chat/${conversation}/message`, {
    method: 'POST',
    headers: headers(scope),
    body: JSON.stringify({ message, database_id: shop.id, ...extra }),
  });
  const body = await jsonOf(response);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return { conversation, answer: body.data as Record<string, unknown> & { message_id: string } };
};

const rate = (scope: string, conversation: string, message: string, body: Record<string, unknown>) =>
  fetch(`${gateway.url}/api/v1/chat/${conversation}/messages/${message}/feedback`, {
    method: 'POST',
    headers: headers(scope),
    body: JSON.stringify(body),
  });

describe('feedback on an answer', () => {
  it('is 201 on one’s own answer, and a second rating replaces the first', async () => {
    const { conversation, answer } = await ask('alice', 'How many orders are there?');

    const first = await rate('alice', conversation, answer.message_id, {
      rating: 'down',
      comment: 'Too few',
    });
    const second = await rate('alice', conversation, answer.message_id, { rating: 'up' });

    expect(first.status).toBe(201);
    expect((await jsonOf(first)).data).toMatchObject({
      message_id: answer.message_id,
      rating: 'down',
      comment: 'Too few',
    });
    expect(second.status).toBe(201);
    const stored = await findMessage(acme.organization.id, conversation, answer.message_id);
    expect(stored?.feedback).toMatchObject({ rating: 'up' });
  });

  it('is 404 on another scope’s answer, 400 on a question, and 400 for bad fields', async () => {
    const { conversation, answer } = await ask('owner', 'How many products are there?');

    const foreign = await rate('intruder', conversation, answer.message_id, { rating: 'up' });
    const history = await jsonOf(
      await fetch(`${gateway.url}/api/v1/chat/history?conversation_id=${conversation}&order=asc`, {
        headers: headers('owner'),
      }),
    );
    const questionId = history.data.messages[0].id as string;
    const question = await rate('owner', conversation, questionId, { rating: 'up' });
    const unknown = await rate('owner', conversation, randomUUID(), { rating: 'up' });
    const wrongRating = await rate('owner', conversation, answer.message_id, { rating: 'meh' });
    const extra = await rate('owner', conversation, answer.message_id, { rating: 'up', stars: 5 });

    expect(foreign.status).toBe(404);
    expect((await jsonOf(foreign)).error_code).toBe('NOT_FOUND_RESOURCE');
    expect(unknown.status).toBe(404);
    expect(question.status).toBe(400);
    expect(wrongRating.status).toBe(400);
    expect(extra.status).toBe(400);
    const stored = await findMessage(acme.organization.id, conversation, answer.message_id);
    expect(stored?.feedback).toBeUndefined();
  });

  it('refuses a corrected SQL the guard refuses, and stores nothing', async () => {
    const { conversation, answer } = await ask('carol', 'How many customers are there?');
    const before = (await listPatterns(shop.id)).length;

    const response = await rate('carol', conversation, answer.message_id, {
      rating: 'down',
      corrected_sql: 'DELETE FROM customers',
    });

    expect(response.status).toBe(400);
    expect((await jsonOf(response)).details[0].field).toBe('body.corrected_sql');
    expect((await listPatterns(shop.id)).length).toBe(before);
    const stored = await findMessage(acme.organization.id, conversation, answer.message_id);
    expect(stored?.feedback).toBeUndefined();
  });
});

describe('candidate patterns from feedback', () => {
  it('change nothing until approved; approved, they answer a model engine’s question without a model call', async () => {
    // Arrange: a model answers a question, and the user up-votes the answer.
    fake.reset();
    const question = 'What is the number of stores we run?';
    const sql = 'SELECT count(*) AS stores FROM stores';
    fake.respond(reply({ kind: 'sql', sql, description: 'Counting stores' }));
    const asked = await ask('dave', question, { personality_id: model.id });
    expect(asked.answer.answered_by).toBe('model');
    const rated = await jsonOf(
      await rate('dave', asked.conversation, asked.answer.message_id, { rating: 'up' }),
    );
    const candidateId = rated.data.candidate_pattern_id as string;
    const candidate = await findPattern(shop.id, candidateId);
    expect(candidate).toMatchObject({ status: 'candidate', question, sql });

    // Act 1: the same question again: the candidate is not used (the model is asked).
    fake.reset();
    fake.respond(reply({ kind: 'sql', sql, description: 'Counting stores' }));
    const again = await ask('erin', `${question} `, { personality_id: model.id });
    // (the shared cache may answer it; what matters is that the candidate did not)
    expect(again.answer.answered_by).not.toBe('pattern');

    // Act 2: an admin finds it among the candidates and approves it through the control plane;
    // then the pattern answers with no model call.
    const manage = {
      'X-API-Key': (await createApiKey({ organizationId: acme.organization.id, kind: 'sk', manage: true }))
        .key,
    };
    const patterns = `${gateway.url}/api/v1/organization/databases/${shop.id}/patterns`;
    const candidates = await jsonOf(await fetch(`${patterns}?status=candidate`, { headers: manage }));
    expect(JSON.stringify(candidates.data)).toContain(candidateId);
    const approval = await fetch(`${patterns}/${candidateId}`, {
      method: 'PATCH',
      headers: { ...manage, 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'approved' }),
    });
    expect(approval.status).toBe(200);
    expect((await findPattern(shop.id, candidateId))?.status).toBe('approved');
    fake.reset();
    const approved = await ask('frank', question, { personality_id: model.id });

    // Assert
    expect(approved.answer.answered_by).toBe('pattern');
    expect(fake.requests).toHaveLength(0);
  });
});
