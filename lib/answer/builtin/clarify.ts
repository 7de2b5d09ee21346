// Clarifications as values, and the wording they share: a stage that cannot read a question
// returns a `Clarification` (types.ts) with its message, the schema parts it could mean and, when
// another reading might still answer, a reason code; nothing is thrown across stages.
import type { Candidate } from '../engine.ts';
import { mainRelations, tableName } from './lexicon.ts';
import type { Clarification, ClarifyReason, ColumnRef, Lexicon } from './types.ts';
import { joinAnd } from './words.ts';

export const clarify = (
  message: string,
  candidates?: Candidate[],
  reason?: ClarifyReason,
): Clarification => ({
  kind: 'clarify',
  message,
  ...(candidates ? { candidates } : {}),
  ...(reason ? { reason } : {}),
});

export const isClarification = (value: object): value is Clarification =>
  'kind' in value && value.kind === 'clarify';

export const quoted = (text: string): string => `“${text}”`;

export const columnLabel = (lexicon: Lexicon, ref: ColumnRef): string =>
  `${tableName(lexicon, ref.table)}.${ref.column}`;

export const tablesLabel = (lexicon: Lexicon, tables: readonly string[]): string =>
  joinAnd(tables.map((table) => tableName(lexicon, table)));

export const mainTables = (lexicon: Lexicon): string =>
  joinAnd(
    mainRelations(lexicon).map((relation) => relation.other),
    'or',
  );

/**
 * Raised while the interpret stage (statement.ts, conditions.ts and the resolver they use,
 * resolve.ts) builds a reading, to stop it where it cannot go on; `interpret` catches it and
 * returns its clarification as a value, so it never leaves the stage.
 */
export class Clarify extends Error {
  readonly clarification: Clarification;
  constructor(message: string, candidates?: Candidate[], reason?: ClarifyReason) {
    super(message);
    this.clarification = clarify(message, candidates, reason);
  }
}
