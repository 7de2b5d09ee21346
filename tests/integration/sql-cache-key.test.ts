// The shared SQL cache's key (lib/answer/sql-cache.ts) against DynamoDB Local: a model's SQL is
// served again only when everything that shaped it is the same: the personality's
// instructions, and the day when the question or the SQL depends on "now".
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SqlProposal } from '#lib/answer/engine.ts';
import {
  questionDependsOnNow,
  rememberSql,
  reusableSql,
  type SqlSourceInput,
  sqlDependsOnNow,
} from '#lib/answer/sql-cache.ts';

const DAY_ONE = new Date('2026-03-15T09:00:00.000Z');
const LATER_ON_DAY_ONE = new Date('2026-03-15T23:30:00.000Z');
const DAY_TWO = new Date('2026-03-16T08:00:00.000Z');

const source = (overrides: Partial<SqlSourceInput> = {}): SqlSourceInput => ({
  databaseId: randomUUID(),
  question: 'How many orders were cancelled?',
  followUp: false,
  engineName: 'openai',
  model: 'gpt-test',
  indexedAt: '2026-01-01T00:00:00.000Z',
  now: DAY_ONE,
  ...overrides,
});

const sql = (text: string): SqlProposal => ({ kind: 'sql', sql: text, description: 'Counting' });

const served = async (input: SqlSourceInput) => (await reusableSql(input))?.proposal.sql;

describe('the shared SQL cache key', () => {
  it('serves SQL written under one personality’s instructions only under the same instructions', async () => {
    const first = source({ instructions: 'Answer as a formal accountant; amounts in EUR.' });
    await rememberSql(first, sql("SELECT count(*) AS n FROM orders WHERE status = 'cancelled'"));

    expect(await served(first)).toBe("SELECT count(*) AS n FROM orders WHERE status = 'cancelled'");
    expect(await served({ ...first, instructions: 'Be brief.' })).toBeUndefined();
    expect(await served({ ...first, instructions: undefined })).toBeUndefined();
  });

  it('serves a question about a time relative to now only on the day it was written', async () => {
    const first = source({ question: 'How many orders were cancelled last month?' });
    await rememberSql(
      first,
      sql(
        "SELECT count(*) AS n FROM orders WHERE date_trunc('month', ordered_at) = date_trunc('month', now()) - interval '1 month'",
      ),
    );

    expect(await served({ ...first, now: LATER_ON_DAY_ONE })).toBeDefined();
    expect(await served({ ...first, now: DAY_TWO })).toBeUndefined();
  });

  it('serves SQL that carries a date literal only on its day, whatever the question looked like', async () => {
    const first = source({ question: 'How many orders in the period?' });
    await rememberSql(first, sql("SELECT count(*) AS n FROM orders WHERE ordered_at >= '2026-02-01'"));

    expect(await served(first)).toBeDefined();
    expect(await served({ ...first, now: DAY_TWO })).toBeUndefined();
  });

  it('keeps serving day-free SQL of a day-free question on later days', async () => {
    const first = source({ question: 'Revenue per product category' });
    await rememberSql(first, sql('SELECT category, sum(total) AS revenue FROM orders GROUP BY category'));

    expect(await served({ ...first, now: DAY_TWO })).toBe(
      'SELECT category, sum(total) AS revenue FROM orders GROUP BY category',
    );
  });
});

describe('what depends on now', () => {
  it.each([
    ['How many orders were cancelled last month?', true],
    ['sales today', true],
    ['signups in the past 30 days', true],
    ['orders placed 3 weeks ago', true],
    ['revenue this year so far', true],
    ['Revenue per product category', false],
    ['orders in 2025', false],
    ['the last order of each customer', false],
  ])('%s → %s', (question, expected) => {
    expect(questionDependsOnNow(question)).toBe(expected);
  });

  it('reads date literals and the clock functions in SQL', () => {
    expect(sqlDependsOnNow("SELECT 1 FROM t WHERE d >= '2026-01-01'")).toBe(true);
    expect(sqlDependsOnNow('SELECT 1 FROM t WHERE d >= CURRENT_DATE - 7')).toBe(true);
    expect(sqlDependsOnNow('SELECT 1 FROM t WHERE d >= NOW()')).toBe(true);
    expect(sqlDependsOnNow('SELECT count(*) FROM orders GROUP BY status')).toBe(false);
  });
});
