// Money in schema linking (docs/model-engines.md "Linking"), for linking.ts: a question about
// money ("cost the most", "total outlay", "how much did we spend") reads the money columns of
// the relations it links, whatever those columns are called; and money asked of a linked
// relation that holds none ("spend on fish" links suppliers by a value) is in the relations
// recording what happened to it (deliveries from suppliers), whose money columns come along.
import type { lexiconFor } from '../builtin/lexicon.ts';
import type { Edge } from '../builtin/types.ts';
import { type Evidence, foldText } from './word-links.ts';

/** Words of a question that ask about money. */
const MONEY_WORDS = new Set(
  `cost costs costly expensive cheap cheaper cheapest price prices priced pricey value valued worth
  money spend spent spending outlay paid pay payout revenue earned earn earnings charged owed
  dollars euros pounds`.split(/\s+/),
);

/** Evidence for a relation recording money about a linked relation that holds none. */
const MONEY_RECORDS = 2;

type Lexicon = ReturnType<typeof lexiconFor>;
/** What linking found for a relation, as far as money reads it. */
type LinkedRelation = { score: number; columns: Set<string> };

export const asksMoney = (question: string): boolean =>
  foldText(question)
    .split(' ')
    .some((word) => MONEY_WORDS.has(word));

/** The money columns of a relation (the lexicon's: `amount`, `fee_amt`, `cost`…), keys aside. */
const moneyOf = (lexicon: Lexicon, key: string): string[] =>
  (lexicon.relations.get(key)?.columns ?? []).filter((c) => c.money && !c.key).map((c) => c.name);

/** The money columns of every linked relation become linked columns. */
export const linkMoneyColumns = (lexicon: Lexicon, byKey: ReadonlyMap<string, LinkedRelation>) => {
  for (const [key, linked] of byKey) for (const column of moneyOf(lexicon, key)) linked.columns.add(column);
};

/**
 * A linked relation without money columns brings the relations whose keys refer to it and that
 * have money columns, with those columns; only those the question links less than it, so that
 * noise does not lift a relation linked better already.
 */
export const linkMoneyRecords = (
  lexicon: Lexicon,
  byKey: ReadonlyMap<string, LinkedRelation>,
  edges: readonly Edge[],
  evidence: Evidence,
) => {
  const records = new Set<string>();
  for (const [key, linked] of byKey) {
    if (linked.columns.size === 0 || moneyOf(lexicon, key).length > 0) continue;
    for (const edge of edges)
      if (
        edge.parent === key &&
        moneyOf(lexicon, edge.child).length > 0 &&
        (byKey.get(edge.child)?.score ?? 0) < linked.score
      )
        records.add(edge.child);
  }
  for (const child of records) {
    evidence.add(child, MONEY_RECORDS);
    for (const column of moneyOf(lexicon, child)) evidence.add(child, 0, column);
  }
};
