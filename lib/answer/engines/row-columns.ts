// The columns a row is read by (docs/model-engines.md "Linking"), for schema-details.ts: kept
// when a relation is detailed short, besides its keys and the columns the question named. Its
// labels (a name, first and last name, a title, the row's own number: rental_no of rentals), its
// date when the question names a period or a time grain ("this year", "in Q1", "monthly"), and
// its state (status) for a relation the question is about. Also which relations hold people, and
// whether a question asks about people ("who", "which lawyer", a person's given name).
import type { Catalog } from '#lib/core/catalog.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import { lexiconFor } from '../builtin/lexicon.ts';
import { periodAt } from '../builtin/periods.ts';
import { tokenize } from '../builtin/tokens.ts';
import { lexicalDatabase } from '../builtin/wordnet.ts';
import { abbreviates, singular, splitIdentifier, stopwords } from '../builtin/words.ts';
import { foldText, questionFillers, relationKey, relationNouns } from './word-links.ts';

/** What of a relation's row is read without being named. */
export interface RowColumns {
  /** Columns that name a row to a person: the lexicon's labels, and the row's own number. */
  labels: string[];
  /** The column that dates a row best. */
  date?: string;
  /** The column holding the row's state. */
  status?: string;
  /** The rows are people (customers, fee earners, staff). */
  people: boolean;
}

/** The row's own number or code: a word of the relation's noun (or short for it) and a number word. */
const OWN_NUMBER = /^(no|num|number|nbr|ref|reference|code|cd)$/;
/** Column names that hold a row's state. */
const STATUS = /(?:^|_)(?:status|state|stage)$/i;
/** Nouns for a group of people, which WordNet does not file as persons. */
const GROUPS_OF_PEOPLE = new Set(['staff', 'personnel', 'crew', 'workforce', 'team', 'people']);

/** Whether `short` is the start of `word` or its letters in order, the first first ("cust", "acct"). */
const shortFor = (short: string, word: string): boolean =>
  short === word || (short.length >= 3 && word.startsWith(short)) || abbreviates(short, word);

const byLexicon = new WeakMap<object, Map<string, RowColumns>>();

/** Each relation's row columns, by relation key (once per lexicon). */
export const rowColumnsOf = (
  catalog: Catalog,
  tenantColumn: string | undefined,
  glossary: Glossary | undefined,
): Map<string, RowColumns> => {
  let lexicon: ReturnType<typeof lexiconFor> | undefined;
  try {
    lexicon = lexiconFor(catalog, tenantColumn, glossary);
  } catch {
    lexicon = undefined;
  }
  const cached = lexicon ? byLexicon.get(lexicon) : undefined;
  if (cached) return cached;
  const database = lexicalDatabase();
  const rows = new Map<string, RowColumns>();
  for (const relation of catalog.relations) {
    const key = relationKey(relation);
    const info = lexicon?.relations.get(key);
    const nouns = relationNouns(relation).map((noun) => noun.split(' ').at(-1)!);
    const head = nouns.at(-1) ?? '';
    const columns = relation.columns.filter((column) => column.name !== tenantColumn);
    const labels = new Set(info?.labels ?? []);
    for (const column of columns) {
      const words = splitIdentifier(column.name);
      if (
        words.length === 2 &&
        OWN_NUMBER.test(words[1]!) &&
        nouns.some((noun) => shortFor(singular(words[0]!), noun))
      )
        labels.add(column.name);
    }
    const date = info?.primaryDate ?? info?.dates[0];
    const status = columns.find((column) => STATUS.test(column.name) && column.kind === 'text');
    const firstAndLast = info?.labels.length === 2;
    rows.set(key, {
      labels: columns.filter((column) => labels.has(column.name)).map((column) => column.name),
      ...(date ? { date: date.name } : {}),
      ...(status ? { status: status.name } : {}),
      people: firstAndLast || GROUPS_OF_PEOPLE.has(head) || (database?.person(head) ?? false),
    });
  }
  if (lexicon) byLexicon.set(lexicon, rows);
  return rows;
};

/** Words of a time grain: a question grouping or ranking by one reads the row's date. */
const TIME_GRAIN =
  /\b(?:daily|weekly|monthly|quarterly|yearly|annual|annually|day|days|week|weeks|month|months|quarter|quarters|year|years|when|since|ago|recent|recently|latest|earliest|newest|oldest|upcoming|coming up|so far|overdue|late|early|tonight|today|yesterday|tomorrow|weekend)\b/;

/** Whether the question names a period ("in 2025", "last month", "Q1") or a time grain ("monthly"). */
export const asksPeriod = (question: string): boolean => {
  if (TIME_GRAIN.test(foldText(question))) return true;
  const tokens = tokenize(question);
  const now = new Date('2026-01-01T00:00:00Z');
  return tokens.some((_, index) => {
    try {
      return periodAt(tokens, index, now) !== undefined;
    } catch {
      return false;
    }
  });
};

const PEOPLE_WORDS = new Set(['who', 'whom', 'whose', 'someone', 'anyone', 'everyone', 'people', 'staff']);

/**
 * Whether a question asks about people, from its words nothing in the schema explained: "who", a
 * word for people ("which lawyer", "our people"), a person's given name WordNet knows ("Daniel
 * Finch").
 */
export const asksPeople = (unexplained: readonly string[]): boolean => {
  if (unexplained.some((word) => PEOPLE_WORDS.has(word))) return true;
  const database = lexicalDatabase();
  return unexplained.some((word) => {
    if (word.length < 3 || stopwords.has(word) || questionFillers.has(word) || !database) return false;
    const one = singular(word);
    // A noun first ("have" is filed as a person too, under its rare noun sense).
    return database.dominantClass(one) === 'n' && database.person(one);
  });
};
