// The builtin engine's two passes around the value lookup (values.ts): read the question; when
// it stops at words that may name values of the asker's own data, look them up once through
// `EngineInput.findValues` and read it again with the values found. Both passes are the pure
// `proposeBuiltin`; only this function waits for the lookup.
import type { EngineInput, Proposal, ValueProbe } from '../engine.ts';
import { valueWords } from './columns.ts';
import { lexiconFor } from './lexicon.ts';
import type { Lexicon, Note } from './types.ts';
import {
  columnReadings,
  columnsOf,
  type NameRun,
  ofNamedRelation,
  phraseValues,
  withFoundValues,
  withoutTitles,
} from './values.ts';
import { phraseKey } from './words.ts';

/** Values the lookup found, known to the second pass as sampled values are. */
export interface KnownValues {
  lexicon: Lexicon;
  notes: Note[];
}

/** What a first pass leaves for the lookup: the question as read, and what to look up. */
export interface ValuesWanted {
  question?: string;
  probe?: { probe: ValueProbe; runs: NameRun[] };
}

type Propose = (input: EngineInput, known?: KnownValues, wanted?: ValuesWanted) => Proposal;

/** Questions offered back at most. */
const MAX_OPTIONS = 3;

/**
 * The answer to `input`, with the value lookup when the first pass asks for one. Found nothing:
 * the question read again as if looked up, the same for a value of another tenant as for one of
 * nobody's.
 */
export const proposeWithValues = async (input: EngineInput, propose: Propose): Promise<Proposal> => {
  const wanted: ValuesWanted = {};
  const first = propose(input, undefined, wanted);
  if (first.kind !== 'clarification' || !wanted.probe || !wanted.question || !input.findValues) return first;
  const found = await input.findValues(wanted.probe.probe);
  const lexicon = lexiconFor(input.catalog, input.tenantColumn, input.glossary);
  /** The relations a word names, by their keys (`schema.name`, as found values name them). */
  const relationsNamed = (word: string): string[] =>
    (lexicon.phrases.get(phraseKey(valueWords(word))) ?? []).flatMap((entry) =>
      entry.kind === 'relation' && lexicon.relations.has(entry.table) ? [entry.table] : [],
    );
  const matched = phraseValues(wanted.question, wanted.probe.runs, found, relationsNamed);
  // Nothing found: read again without waiting for a lookup (a name may then be read as a guess,
  // "at Northwind" as a city), the same whether the name is another tenant's or nobody's.
  if (matched.length === 0) return propose(input, { lexicon, notes: [] });
  const named = new Set([...wanted.question.matchAll(/\p{L}+/gu)].flatMap(([word]) => relationsNamed(word)));
  const { question, phrases } = withoutTitles(
    wanted.question,
    matched.map((phrase) => ofNamedRelation(lexicon, phrase, named)),
  );
  const again = question === wanted.question ? input : { ...input, question };
  const ambiguous = phrases.find((phrase) => columnsOf(phrase.values).length > 1);
  if (ambiguous) {
    // One name, two columns ("Harbor" a customer and a supplier): each as a question to pick.
    const options = columnReadings(lexicon, question, ambiguous).filter(
      (option) => propose({ ...input, question: option.question }).kind === 'sql',
    );
    // Only one of them reads: that one; none: as if nothing was found.
    if (options.length === 0) return first;
    if (options.length === 1) return propose({ ...input, question: options[0]!.question });
    return {
      kind: 'clarification',
      message: `“${ambiguous.phrase}” is in more than one place: ${options
        .map((option) => option.note.text.replace(/^“[^”]*” as /, ''))
        .join(', or ')}. Which one do you mean?`,
      ...(options.length > 1
        ? { suggestions: options.slice(0, MAX_OPTIONS).map((option) => option.question) }
        : {}),
    };
  }
  return propose(again, withFoundValues(lexicon, phrases));
};
