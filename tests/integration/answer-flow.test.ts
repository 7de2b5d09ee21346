// The answering flow on the demo shop (local/demo/shop.sql) in PGlite, with DynamoDB Local: the
// checks of answer-flow-suite.ts, plus what only the demo shows (a conversation keeps its
// database; a question in plain English gives the rows a hand-written query gives).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearAnswerCatalogs } from '#lib/answer/catalog.ts';
import { sendChatMessage } from '#lib/answer/chat.ts';
import type { Principal } from '#lib/auth/principal.ts';
import { uuidv7 } from '#lib/ids.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { createOrganization } from '#lib/store/organizations.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { answerFlowSuite } from './answer-flow-suite.ts';

let database: DatabaseRecord;
let principal: Principal;

beforeAll(async () => {
  const organization = await createOrganization({ name: 'Answering on PGlite', plan: 'professional' });
  principal = { credential: 'sk', organizationId: organization.id, plan: 'professional' };
  database = await registerDatabase({ organizationId: organization.id });
}, 60_000);

afterAll(async () => {
  clearAnswerCatalogs();
  await closeConnectors();
});

describe('the answering flow on PGlite', { timeout: 60_000 }, () => {
  answerFlowSuite({
    database: () => database,
    principal: () => principal,
    table: (name) => `public.${name}`,
    param: (n) => `$${n}`,
    systemQuery: 'SELECT usename FROM pg_catalog.pg_user',
  });

  it('answers a grouping in plain English with the rows of the tenant', async () => {
    // Act
    const { answer } = await sendChatMessage({
      principal,
      scopeId: undefined,
      tenantHeader: '3',
      conversationId: undefined,
      newConversationId: uuidv7,
      question: 'How many orders per status?',
      databaseId: database.id,
      personalityId: undefined,
    });

    // Assert
    expect(answer.query_type).toBe('sql');
    expect(answer.results.length).toBeGreaterThan(1);
    expect(answer.results.every((row) => Object.keys(row).includes('status'))).toBe(true);
    expect(answer.message).toMatch(/delivered/);
  });
});
