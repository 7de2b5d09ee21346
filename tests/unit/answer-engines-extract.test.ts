// Reading model replies (lib/answer/engines/extract.ts): the JSON object bare, fenced or after
// prose; what is not in the format is undefined (the engine then asks once more); SQL is kept
// as written, whatever it is, for the guard to judge.
import { describe, expect, it } from 'vitest';
import { extractProposal, readModelState } from '#lib/answer/engines/extract.ts';

const sqlReply = JSON.stringify({
  kind: 'sql',
  sql: "SELECT count(*) AS n FROM orders WHERE status = 'cancelled'",
  description: "Counting orders with status 'cancelled'",
});

describe('extractProposal', () => {
  it('reads a bare JSON object into a SQL proposal with its state', () => {
    expect(extractProposal(sqlReply)).toEqual({
      kind: 'sql',
      sql: "SELECT count(*) AS n FROM orders WHERE status = 'cancelled'",
      description: "Counting orders with status 'cancelled'",
      state: {
        v: 1,
        sql: "SELECT count(*) AS n FROM orders WHERE status = 'cancelled'",
        description: "Counting orders with status 'cancelled'",
      },
    });
  });

  it('reads the object out of a code fence', () => {
    expect(extractProposal(`\`\`\`json\n${sqlReply}\n\`\`\``)).toMatchObject({ kind: 'sql' });
  });

  it('reads the object after leading prose and before trailing prose', () => {
    const proposal = extractProposal(`Sure, here you go:\n${sqlReply}\nLet me know if you need more.`);
    expect(proposal).toMatchObject({
      kind: 'sql',
      sql: "SELECT count(*) AS n FROM orders WHERE status = 'cancelled'",
    });
  });

  it('is not fooled by braces inside strings', () => {
    const reply = `Note {this}: ${JSON.stringify({ kind: 'sql', sql: "SELECT '}{' AS brace", description: 'A brace' })}`;
    expect(extractProposal(reply)).toMatchObject({ sql: "SELECT '}{' AS brace" });
  });

  it('takes the first object that has the format when several are present', () => {
    const reply = `{"example": true} then ${JSON.stringify({ kind: 'clarification', message: 'Which year?' })}`;
    expect(extractProposal(reply)).toEqual({ kind: 'clarification', message: 'Which year?' });
  });

  it('strips a code fence the model put inside the sql field', () => {
    const reply = JSON.stringify({ kind: 'sql', sql: '```sql\nSELECT 1\n```', description: 'One' });
    expect(extractProposal(reply)).toMatchObject({ sql: 'SELECT 1' });
  });

  it('reads a reply that is only a fenced SQL block as a SQL proposal', () => {
    expect(extractProposal('```sql\nSELECT count(*) FROM orders\n```')).toMatchObject({
      kind: 'sql',
      sql: 'SELECT count(*) FROM orders',
    });
  });

  it('keeps SQL exactly as written: several statements or a DROP are for the guard to refuse', () => {
    for (const sql of [
      'DROP TABLE orders',
      'SELECT 1; DROP TABLE orders',
      'SELECT 1 /*! ; DELETE FROM x */',
    ]) {
      expect(extractProposal(JSON.stringify({ kind: 'sql', sql, description: 'x' }))).toMatchObject({ sql });
    }
  });

  it('gives a SQL proposal a description even when the model left it out', () => {
    const proposal = extractProposal(JSON.stringify({ kind: 'sql', sql: 'SELECT 1' }));
    expect(proposal).toMatchObject({ kind: 'sql', description: 'Running the query the model wrote' });
  });

  it('reads clarifications, conversation and refusals; a known refusal reason is kept', () => {
    expect(extractProposal(JSON.stringify({ kind: 'conversational', message: 'Hello!' }))).toEqual({
      kind: 'conversational',
      message: 'Hello!',
    });
    expect(
      extractProposal(JSON.stringify({ kind: 'refused', message: 'I only read data.', reason: 'write' })),
    ).toEqual({
      kind: 'refused',
      message: 'I only read data.',
      reason: 'write',
    });
    expect(extractProposal(JSON.stringify({ kind: 'refused', message: 'No.', reason: 'made-up' }))).toEqual({
      kind: 'refused',
      message: 'No.',
    });
  });

  it('cuts an overlong message', () => {
    const proposal = extractProposal(JSON.stringify({ kind: 'clarification', message: 'x'.repeat(5_000) }));
    expect(proposal?.kind === 'clarification' && proposal.message.length).toBe(2_000);
  });

  it.each([
    ['prose only', 'I think you should count the orders.'],
    ['truncated JSON', '{"kind": "sql", "sql": "SELECT count(*) FROM'],
    ['an unknown kind', JSON.stringify({ kind: 'answer', message: 'Hi' })],
    ['sql without SQL', JSON.stringify({ kind: 'sql', description: 'Nothing' })],
    ['sql with empty SQL', JSON.stringify({ kind: 'sql', sql: '   ', description: 'Nothing' })],
    ['a clarification without a message', JSON.stringify({ kind: 'clarification' })],
    ['a JSON array', '["sql", "SELECT 1"]'],
    ['an empty reply', ''],
  ])('is undefined for %s', (_, reply) => {
    expect(extractProposal(reply)).toBeUndefined();
  });
});

describe('readModelState', () => {
  it('reads the state a SQL proposal saved and ignores anything else', () => {
    expect(readModelState({ v: 1, sql: 'SELECT 1', description: 'One' })).toEqual({
      v: 1,
      sql: 'SELECT 1',
      description: 'One',
    });
    expect(readModelState({ v: 2, sql: 'SELECT 1', description: 'One' })).toBeUndefined();
    expect(readModelState({ intent: {} })).toBeUndefined();
    expect(readModelState(null)).toBeUndefined();
  });
});
