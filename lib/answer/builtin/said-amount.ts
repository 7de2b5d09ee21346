// Which amount a verb of the question names where it would otherwise read revenue: "how much was
// paid" adds up the amount paid (amt_paid) of the relation revenue comes from, not its total;
// "how much do students owe" asks for a balance, which no column holds unless one is named so,
// and is asked back rather than answered with the total billed.

import { Clarify, columnLabel, quoted } from './clarify.ts';
import type { Measure } from './intent.ts';
import type { ColumnInfo, Lexicon } from './types.ts';
import { lexicalDatabase } from './wordnet.ts';
import { joinAnd, stopwords } from './words.ts';

/** Phrase knowledge: verbs that ask what is still unpaid, never what was billed or taken. */
const BALANCE_VERBS = new Set(['owe']);

/** The verbs a word is a form of ("paid" → pay), when it is used as a verb: empty otherwise. */
const verbLemmas = (word: string): Set<string> => {
  const database = lexicalDatabase();
  if (!database || stopwords.has(word)) return new Set();
  const verbs = database.readings(word).filter((reading) => reading.wordClass === 'v');
  // An inflected form ("paid", "refunded") is the verb; a bare word only when mostly a verb
  // ("owe", "pay"), so that "total" or "amount" never count.
  const inflected = verbs.some((reading) => reading.lemma !== word);
  if (!inflected && database.dominantClass(word) !== 'v') return new Set();
  return new Set(verbs.map((reading) => reading.lemma));
};

/**
 * The amount a verb of `words` names in place of `revenue`: a money column of a relation `revenue`
 * reads (or one the question names) whose name holds a form of that verb. Any verb where an amount
 * is added up (`anyVerb`: "how much was paid"); elsewhere ("top 5 claims by amount") only a verb
 * asking for a balance, which no column answering it makes asked back. Undefined: revenue stands.
 */
export const amountSaid = (
  lexicon: Lexicon,
  words: readonly string[],
  revenue: readonly Measure[],
  named: ReadonlySet<string>,
  anyVerb: boolean,
): Measure | undefined => {
  const tables = new Set(named);
  const inRevenue = new Set<string>();
  for (const measure of revenue) {
    const refs = 'ref' in measure ? [measure.ref] : 'left' in measure ? [measure.left, measure.right] : [];
    for (const ref of refs) {
      tables.add(ref.table);
      inRevenue.add(`${ref.table}.${ref.column}`);
    }
  }
  const money: ColumnInfo[] = [...tables].flatMap((table) =>
    (lexicon.relations.get(table)?.columns ?? []).filter(
      (column) => column.money && !inRevenue.has(`${column.table}.${column.name}`),
    ),
  );
  for (const word of words) {
    const lemmas = verbLemmas(word);
    const balance = [...lemmas].some((lemma) => BALANCE_VERBS.has(lemma));
    if (lemmas.size === 0 || (!anyVerb && !balance)) continue;
    const found = money.filter((column) =>
      column.words.some((part) => [...verbLemmas(part)].some((lemma) => lemmas.has(lemma))),
    );
    if (found.length === 1)
      return { kind: 'column', ref: { table: found[0]!.table, column: found[0]!.name } };
    if (found.length > 1) {
      throw new Clarify(
        `${quoted(word)} could be ${joinAnd(
          found.map((column) => columnLabel(lexicon, { table: column.table, column: column.name })),
          'or',
        )}. Which one do you mean?`,
      );
    }
    if (balance) {
      throw new Clarify(
        `I can't find an amount still owed in this database, only amounts billed or paid. Which amount should I add up?`,
      );
    }
  }
  return undefined;
};
