// Visitors' feedback over HTTP (docs/design.md "Isolation against an attacker: second round"):
// an embed session's candidates have their own quota per visitor and per database and never take
// a place of the organization's patterns, so the page's visitors cannot make the admins'
// createPattern fail with TOO_MANY_PATTERNS; a refused corrected SQL tells a visitor its code,
// never the relation it named, while the integrator's sk_ key keeps the whole message.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPattern } from '#lib/manage/patterns.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { addPattern, listPatterns, MAX_CANDIDATES_PER_VISITOR, MAX_PATTERNS } from '#lib/store/patterns.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { ANSWERING_TEST_ROUTE, jsonOf, startTestGateway } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
let shop: DatabaseRecord;

beforeAll(async () => {
  gateway = await startTestGateway([ANSWERING_TEST_ROUTE]);
  acme = await makeOrganization('business');
  shop = await registerDatabase({ organizationId: acme.organization.id });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

const request = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${gateway.url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const session = async (scope: string): Promise<Record<string, string>> => {
  const response = await request(
    'POST',
    '/api/v1/embed/sessions',
    { 'X-API-Key': acme.sk },
    { database_id: shop.id, tenant_id: '1', scope_id: scope },
  );
  const json = await jsonOf(response);
  expect(response.status, JSON.stringify(json)).toBe(201);
  return { Authorization: `Bearer ${json.data.token}` };
};

/** Asks, then sends a corrected SQL for the answer: the candidate's id, or null. */
const correct = async (headers: Record<string, string>, question: string, sql: string) => {
  const asked = await jsonOf(
    await request('POST', '/api/v1/chat/message', headers, { message: question, database_id: shop.id }),
  );
  expect(asked.data?.message_id, JSON.stringify(asked)).toEqual(expect.any(String));
  const path = `/api/v1/chat/${asked.data.conversation_id}/messages/${asked.data.message_id}/feedback`;
  const rated = await request('POST', path, headers, { rating: 'down', corrected_sql: sql });
  return { status: rated.status, body: await jsonOf(rated) };
};

describe('visitors’ candidate patterns', () => {
  it('have their own quota per visitor and never take a place of the organization’s patterns', async () => {
    // Arrange: the organization is one pattern short of its limit.
    for (let n = 0; n < MAX_PATTERNS - 1; n += 1)
      await addPattern(shop.id, { question: `own question ${n}`, sql: 'SELECT count(*) FROM orders' });
    const alice = await session(`alice-${randomUUID()}`);
    const bob = await session(`bob-${randomUUID()}`);
    const questions = [
      'How many orders were placed in 2025?',
      'How many customers are there?',
      'How many products are there?',
      'How many orders are there?',
    ];

    // Act: alice corrects four answers, bob one.
    const fromAlice = [];
    for (const question of questions)
      fromAlice.push(await correct(alice, question, 'SELECT count(*) AS n FROM orders'));
    const fromBob = await correct(bob, 'How many stores are there?', 'SELECT count(*) AS n FROM stores');

    // Assert: alice's first three are candidates, the fourth is not; bob has his own quota.
    expect(fromAlice.map((rated) => rated.status)).toEqual([201, 201, 201, 201]);
    const candidates = fromAlice.map((rated) => rated.body.data.candidate_pattern_id);
    expect(candidates.slice(0, MAX_CANDIDATES_PER_VISITOR)).toEqual([
      expect.any(String),
      expect.any(String),
      expect.any(String),
    ]);
    expect(candidates[MAX_CANDIDATES_PER_VISITOR]).toBeNull();
    expect(fromBob.body.data.candidate_pattern_id).toEqual(expect.any(String));
    // The admins' own last pattern still fits.
    const own = await createPattern(shop, {
      question: 'How many payments are there?',
      sql: 'SELECT count(*) FROM payments',
    });
    expect(own.status).toBe('approved');
    expect((await listPatterns(shop.id)).length).toBe(MAX_PATTERNS + MAX_CANDIDATES_PER_VISITOR + 1);
  }, 120_000);

  it('tell a visitor a refusal’s code without the relation it named; the sk_ key keeps the message', async () => {
    const visitor = await session(`carol-${randomUUID()}`);
    const refused = await correct(
      visitor,
      'How many orders were placed in 2024?',
      'SELECT * FROM nosuchtable',
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).not.toMatch(/nosuchtable/i);
    expect(JSON.stringify(refused.body)).toContain('UNKNOWN_RELATION');

    const server = { 'X-API-Key': acme.sk, 'X-Tenant-Id': '1', 'X-Scope-Id': `dave-${randomUUID()}` };
    const byServer = await correct(
      server,
      'How many orders were placed in 2023?',
      'SELECT * FROM nosuchtable',
    );
    expect(byServer.status).toBe(400);
    expect(JSON.stringify(byServer.body)).toMatch(/nosuchtable/i);
  }, 60_000);
});
