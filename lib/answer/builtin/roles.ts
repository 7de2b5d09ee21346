// The role of a word that links to nothing, for what leaving it unexplained costs (docs/design.md
// "Answering on unseen databases": an unexplained word costs according to its role). A light
// verb — one that says that something is had, done or offered, not which rows — is filler
// where it stands as a verb: "how many sections did we run in fall 2024", "what postgraduate
// programmes do we offer", "drivers that can only drive rigid trucks", "how many trucks of each
// make do we run". The verb is kept as a skipped verb (a `verb` mention), so the check that a
// skipped verb does not join two relations only through a shared parent still applies.
//
// A verb that may carry a filter is never light: one whose forms name a date column
// ("paid" → paid_dt, "hired" → hired_dt), a yes/no column or a value of a text column the index
// sampled ("cancelled", "dropped", "delivered"). Only general English knowledge: the table of
// light verbs, the positions of a verb after its subject or an auxiliary, WordNet's verb forms.
import type { Lexicon, Token } from './types.ts';
import { lexicalDatabase } from './wordnet.ts';

/** Phrase knowledge: verbs that say a thing is had, done, used or offered, not which rows. */
export const LIGHT_VERBS = new Set(
  `do have get make run offer provide keep hold use operate manage serve carry drive stock host maintain
  employ hire own look see give take go put find need want deal handle fly sail ride teach`
    .split(/\s+/)
    .filter(Boolean),
);

/** Subjects and auxiliaries a verb follows ("did we run", "do we offer", "can only drive"). */
const SUBJECTS = new Set(['we', 'you', 'they', 'i']);
const AUXILIARIES = new Set([
  'do',
  'does',
  'did',
  'have',
  'has',
  'had',
  'can',
  'could',
  'will',
  'would',
  'should',
  'may',
  'might',
  'must',
]);
/** Adverbs that may stand between an auxiliary and its verb ("can only drive"). */
const BETWEEN = new Set([
  'only',
  'still',
  'also',
  'ever',
  'usually',
  'actually',
  'really',
  'currently',
  'all',
]);

const wordAt = (tokens: readonly Token[], index: number): string | undefined => {
  const token = tokens[index];
  return token?.kind === 'word' ? token.text : undefined;
};

/** Whether the word at `index` stands where a verb does: after its subject or an auxiliary. */
const verbPosition = (tokens: readonly Token[], index: number): boolean => {
  let before = index - 1;
  while (BETWEEN.has(wordAt(tokens, before) ?? '')) before -= 1;
  const previous = wordAt(tokens, before);
  if (previous === undefined) return false;
  return SUBJECTS.has(previous) || (AUXILIARIES.has(previous) && before < index - 1);
};

/** Whether `form` is a form of the verb `lemma` ("paid" of pay, "dropped" of drop). */
const formOf = (form: string, lemma: string): boolean =>
  form === lemma ||
  (lexicalDatabase()
    ?.readings(form)
    .some((reading) => reading.wordClass === 'v' && reading.lemma === lemma) ??
    false);

/**
 * Whether a verb may name a condition on the rows: a form of it names a date or yes/no column,
 * or is a sampled value of a text column.
 */
export const carriesFilter = (lexicon: Lexicon, lemma: string): boolean => {
  const known = carrying.get(lexicon) ?? new Map<string, boolean>();
  carrying.set(lexicon, known);
  const cached = known.get(lemma);
  if (cached !== undefined) return cached;
  const result = findsFilter(lexicon, lemma);
  known.set(lemma, result);
  return result;
};

/** Per lexicon, whether each verb asked about carries a filter. */
const carrying = new WeakMap<Lexicon, Map<string, boolean>>();

const findsFilter = (lexicon: Lexicon, lemma: string): boolean => {
  for (const relation of lexicon.relations.values()) {
    for (const column of relation.columns) {
      if ((column.temporal || column.kind === 'boolean') && column.words.some((word) => formOf(word, lemma)))
        return true;
      if (
        column.samples.some((value) =>
          value
            .toLowerCase()
            .split(/[^a-z]+/)
            .some((word) => word.length > 2 && formOf(word, lemma)),
        )
      )
        return true;
    }
  }
  return false;
};

/** The verb the word at `index` is, when it is a light verb standing as one; undefined otherwise. */
export const lightVerbAt = (
  lexicon: Lexicon,
  tokens: readonly Token[],
  index: number,
): string | undefined => {
  const word = wordAt(tokens, index);
  const database = lexicalDatabase();
  if (word === undefined || !database) return undefined;
  const verb = database.readings(word).find((reading) => reading.wordClass === 'v');
  if (!verb || !LIGHT_VERBS.has(verb.lemma)) return undefined;
  const asVerb = verbPosition(tokens, index) || database.dominantClass(word) === 'v';
  return asVerb && !carriesFilter(lexicon, verb.lemma) ? verb.lemma : undefined;
};
