// The answering flow end to end below HTTP (lib/answer/chat.ts → orchestrator → guard → connector
// → DynamoDB Local), the same checks for every engine of connected database: tenants get their
// own counts for one question, a follow-up narrows the previous answer, SQL the guard refuses
// becomes a `refused` answer, results stop at 100 rows with results_truncated (and never carry
// another tenant's row), a failing query is reported and stored, and two messages to one
// conversation at once are both stored. Used by answer-flow.test.ts (PGlite) and
// answer-flow-servers.test.ts (PostgreSQL, MySQL when their URLs are set).
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { answerCatalogOf } from '#lib/answer/catalog.ts';
import { sendChatMessage } from '#lib/answer/chat.ts';
import type { Engine, Proposal } from '#lib/answer/engine.ts';
import { answerQuestion } from '#lib/answer/orchestrator.ts';
import { GUARD_REFUSED_MESSAGE } from '#lib/answer/query-run.ts';
import type { Principal } from '#lib/auth/principal.ts';
import { resolveTenant } from '#lib/auth/tenant.ts';
import { connectorFor } from '#lib/connectors/index.ts';
import { uuidv7 } from '#lib/ids.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { readWholeConversation } from '#lib/store/messages.ts';

export interface FlowSubject {
  database: () => DatabaseRecord;
  principal: () => Principal;
  /** How a relation is named in direct SQL (schema-qualified: connectors pin search_path). */
  table: (name: string) => string;
  param: (n: number) => string;
  /** A query of a system catalog, which the guard always refuses. */
  systemQuery: string;
}

const fakeEngine = (proposal: Proposal): Engine => ({ name: 'test', propose: async () => proposal });

export const answerFlowSuite = (subject: FlowSubject): void => {
  const ask = (question: string, tenant: string, conversationId?: string, scopeId?: string) =>
    sendChatMessage({
      principal: subject.principal(),
      scopeId,
      tenantHeader: tenant,
      conversationId,
      newConversationId: uuidv7,
      question,
      databaseId: conversationId === undefined ? subject.database().id : undefined,
      personalityId: undefined,
    });

  const count = async (where: string, params: unknown[]): Promise<number> => {
    const connector = await connectorFor(subject.database());
    const { rows } = await connector.execute(
      `SELECT count(*) AS n FROM ${subject.table('orders')} WHERE ${where}`,
      params,
      { timeoutMs: 30_000 },
    );
    return Number(rows[0]?.n);
  };

  const in2025 = (first: number) =>
    `org_id = ${subject.param(first)} AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01'`;

  /** The flow with a given engine, everything else real. */
  const answerWith = async (proposal: Proposal, tenant: number) => {
    const database = subject.database();
    const catalog = await answerCatalogOf(database);
    if (!catalog) throw new Error('the test database has no schema index');
    const conversationId = uuidv7();
    const outcome = await answerQuestion({
      caller: { organizationId: database.organizationId, scopeId: undefined },
      conversationId,
      question: 'A question the test engine answers',
      database,
      catalog,
      tenant: resolveTenant(database, catalog.full, String(tenant), undefined),
      history: [],
      engine: fakeEngine(proposal),
    });
    return { ...outcome, conversationId };
  };

  /** The messages of a conversation; `tenant`: the X-Tenant-Id it was asked under (part of its address). */
  const stored = async (conversationId: string, tenant?: string) =>
    (
      await readWholeConversation(
        { organizationId: subject.database().organizationId, scopeId: undefined, tenant },
        conversationId,
      )
    )?.messages ?? [];

  it('answers one question with each tenant’s own count', async () => {
    // Arrange
    const expected1 = await count(in2025(1), [1]);
    const expected2 = await count(in2025(1), [2]);

    // Act
    const first = await ask('How many orders were placed in 2025?', '1');
    const second = await ask('How many orders were placed in 2025?', '2');

    // Assert
    expect(expected1).not.toBe(expected2);
    expect(first.answer).toMatchObject({
      query_type: 'sql',
      sources: ['database'],
      results: [{ order_count: expected1 }],
      row_count: 1,
      results_truncated: false,
      message: `There are ${expected1.toLocaleString('en-US')} orders in 2025.`,
    });
    expect(second.answer.results).toEqual([{ order_count: expected2 }]);
    // The SQL shown is the engine's, before the tenant rewrite.
    expect(first.answer.sql).toMatch(/^SELECT COUNT\(\*\)/);
    expect(first.answer.sql).not.toMatch(/org_id/);
  });

  it('follows up on the previous answer in the same conversation', async () => {
    // Arrange
    const expected = await count(`${in2025(1)} AND status = ${subject.param(2)}`, [1, 'cancelled']);
    const first = await ask('How many orders were placed in 2025?', '1');

    // Act
    const followUp = await ask('and how many of those were cancelled?', '1', first.answer.conversation_id);

    // Assert
    expect(followUp.answer.conversation_id).toBe(first.answer.conversation_id);
    expect(followUp.answer.results).toEqual([{ order_count: expected }]);
    expect(followUp.answer.message).toBe(`There are ${expected} cancelled orders in 2025.`);
    const messages = await stored(first.answer.conversation_id, '1');
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'How many orders were placed in 2025?'],
      ['assistant', first.answer.message],
      ['user', 'and how many of those were cancelled?'],
      ['assistant', followUp.answer.message],
    ]);
  });

  it('answers SQL the guard refuses with query_type refused, and stores it', async () => {
    // Act
    const { answer, conversationId } = await answerWith(
      { kind: 'sql', sql: subject.systemQuery, description: 'reading a system catalog' },
      1,
    );

    // Assert
    expect(answer).toMatchObject({
      query_type: 'refused',
      message: GUARD_REFUSED_MESSAGE,
      results: [],
      sources: [],
      sql: subject.systemQuery,
    });
    const [, assistant] = await stored(conversationId);
    expect(JSON.parse(assistant?.metadataJson ?? '{}')).toMatchObject({
      query_type: 'refused',
      refusal: 'SYSTEM_CATALOG',
    });
  });

  it('caps results at 100 rows, says they were truncated, and shows only the tenant’s rows', async () => {
    // Act
    const { answer } = await answerWith(
      { kind: 'sql', sql: 'SELECT id, org_id FROM orders ORDER BY id', description: 'listing orders' },
      2,
    );

    // Assert
    expect(answer.results).toHaveLength(100);
    expect(answer).toMatchObject({ row_count: 100, results_truncated: true, query_type: 'sql' });
    expect(new Set(answer.results.map((row) => row.org_id))).toEqual(new Set([2]));
  });

  it('reports a query the database rejects as DB_QUERY_FAILED and stores question and failure', async () => {
    // Act
    const conversationId = uuidv7();
    const database = subject.database();
    const catalog = await answerCatalogOf(database);
    const result = answerQuestion({
      caller: { organizationId: database.organizationId, scopeId: undefined },
      conversationId,
      question: 'What is nope?',
      database,
      catalog: catalog!,
      tenant: resolveTenant(database, catalog!.full, '1', undefined),
      history: [],
      engine: fakeEngine({ kind: 'sql', sql: 'SELECT nope FROM orders', description: 'x' }),
    });

    // Assert
    await expect(result).rejects.toMatchObject({ kind: 'DB_QUERY_FAILED', status: 500 });
    const messages = await stored(conversationId);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(JSON.parse(messages[1]?.metadataJson ?? '{}')).toMatchObject({
      error: { code: 'DB_QUERY_FAILED' },
      sql: 'SELECT nope FROM orders',
    });
  });

  it('stores both of two messages sent to one new conversation at once', async () => {
    // Arrange
    const conversationId = randomUUID();
    const send = (question: string) =>
      sendChatMessage({
        principal: subject.principal(),
        scopeId: 'concurrent',
        tenantHeader: '1',
        conversationId,
        newConversationId: uuidv7,
        question,
        databaseId: subject.database().id,
        personalityId: undefined,
      });

    // Act
    const answers = await Promise.all([
      send('How many orders are there?'),
      send('How many customers are there?'),
    ]);

    // Assert
    expect(answers.map((a) => a.answer.query_type)).toEqual(['sql', 'sql']);
    const whole = await readWholeConversation(
      { organizationId: subject.database().organizationId, scopeId: 'concurrent', tenant: '1' },
      conversationId,
    );
    expect(whole?.conversation.messageCount).toBe(4);
    const messages = whole?.messages ?? [];
    const questions = messages.filter((m) => m.role === 'user');
    expect(questions.map((m) => m.content).sort()).toEqual([
      'How many customers are there?',
      'How many orders are there?',
    ]);
    // Each answer names the question it answers.
    for (const question of questions) {
      const reply = messages.find(
        (m) => m.role === 'assistant' && JSON.parse(m.metadataJson ?? '{}').reply_to === question.id,
      );
      expect(reply?.content, question.content).toMatch(
        question.content.includes('customers') ? /customers\.$/ : /orders\.$/,
      );
    }
  });
};
