// Step 2 of the builtin pipeline, for the words the schema index does not know by name: scored
// linking (docs/design.md "Answering on unseen databases"). A question word that is no relation,
// column, value or glossary term of this database is, in order:
//   - two words that are one name when written together ("check ins" → checkin);
//   - an inflected verb that says a state a column holds in another form ("voided" → 'void',
//     "canceled" → 'cancelled': the two are forms of one verb in WordNet), or through a WordNet
//     synonym ("refused" → 'rejected'), a phrasal verb too ("called off" → 'cancelled'), 0.85;
//   - a synonym of a name (WordNet: "clients" → customer), score 0.8, or a broader term of it
//     ("cats" → feline …: a name that is a broader term of the word), score 0.6;
//   - a typo of a name ("custmers" → customers, "apointments"): a word that is in no dictionary
//     and one edit (two for long words) away from exactly one name, score 0.7;
//   - what a relation's description calls its rows (described.ts: "machines" → equipment,
//     "Machinery owned by the co-op"), the same noun, a WordNet synonym of it or a word one step
//     broader, score 0.45 (a name several descriptions give links to none of them);
//   - filler: a function word, a verb ("published", "serving", "written"), an adverb, or a noun
//     or adjective that says nothing about the data ("database", "overall"), skipped;
//   - else not understood: a noun, adjective or name that links to nothing stops the question
//     (asked back), since answering without it would answer another question.
// Links carry their source and score; the description of an answer names every word read through
// a synonym or a typo, so that the user sees what was understood.
import { relationsByDescribedName } from './described.ts';
import { VERB_PARTICLES } from './phrases.ts';
import type { Entry, Lexicon, Link, LinkSource } from './types.ts';
import { unitSaid } from './units.ts';
import { type LexicalDatabase, lexicalDatabase, type WordClass } from './wordnet.ts';
import { phraseKey, plural, singular } from './words.ts';

const SCORES: Record<LinkSource, number> = {
  joined: 0.95,
  form: 0.85,
  synonym: 0.8,
  typo: 0.7,
  broader: 0.6,
  narrower: 0.5,
  described: 0.45,
};

/** Entries a linked word may stand for: relations and columns (values need their own words). */
const linkable = (entries: readonly Entry[] | undefined): Entry[] =>
  (entries ?? []).filter((entry) => entry.kind === 'relation' || entry.kind === 'column');

/** Downgrades linked entries below the rank of an own name, so that a name always wins. */
const downgraded = (entries: readonly Entry[], rank: number): Entry[] =>
  entries.map((entry) => ('rank' in entry ? { ...entry, rank: Math.min(entry.rank, rank) } : entry));

/** Optimal string alignment distance, stopped once it exceeds `limit`. */
export const editDistance = (a: string, b: string, limit = 2): number => {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, previous2[j - 2]! + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[b.length]!;
};

/** One-word names of the index a typo may be read as (cached per lexicon). */
const singleWords = new WeakMap<Lexicon, string[]>();
const namesOf = (lexicon: Lexicon): string[] => {
  let names = singleWords.get(lexicon);
  if (!names) {
    names = [...lexicon.phrases.entries()]
      .filter(
        ([phrase, entries]) =>
          !phrase.includes(' ') && phrase.length >= 4 && entries.some((entry) => entry.kind !== 'measure'),
      )
      .map(([phrase]) => phrase);
    singleWords.set(lexicon, names);
  }
  return names;
};

/**
 * "machine hires" → equipment hires: a word linked to one relation, followed by a word that
 * makes another name of the index with that relation's name, is that other name.
 */
export const compoundLink = (lexicon: Lexicon, link: Link, next: string): Entry[] | undefined => {
  const [entry] = link.entries;
  if (link.entries.length !== 1 || entry?.kind !== 'relation') return undefined;
  const relation = lexicon.relations.get(entry.table);
  if (!relation) return undefined;
  const entries = linkable(lexicon.phrases.get(phraseKey([...relation.one.split(' '), next])));
  return entries.length > 0 ? entries : undefined;
};

/** "check" + "ins" → checkin: two words that name one relation or column when written together. */
export const joinedLink = (lexicon: Lexicon, first: string, second: string): Link | undefined => {
  const phrase = singular(`${first}${second}`);
  const entries = linkable(lexicon.phrases.get(phrase));
  return entries.length > 0
    ? { entries, source: 'joined', phrase, score: SCORES.joined, span: 2 }
    : undefined;
};

const typoLink = (lexicon: Lexicon, word: string): Link | undefined => {
  if (word.length < 5 || !/^[a-z]+$/.test(word)) return undefined;
  const limit = word.length >= 9 ? 2 : 1;
  const forms = [...new Set([word, singular(word)])];
  let best: { phrase: string; distance: number }[] = [];
  for (const name of namesOf(lexicon)) {
    // "invocies" is one letter pair from "invoices", two from "invoice".
    const distance = Math.min(
      ...forms.map((form) => editDistance(form, name, limit)),
      editDistance(word, plural(name), limit),
    );
    if (distance > limit) continue;
    if (best.length === 0 || distance < best[0]!.distance) best = [{ phrase: name, distance }];
    else if (distance === best[0]!.distance) best.push({ phrase: name, distance });
  }
  if (best.length !== 1) return undefined;
  const phrase = best[0]!.phrase;
  const entries = (lexicon.phrases.get(phrase) ?? []).filter(
    (entry) => entry.kind !== 'measure' && entry.kind !== 'preset',
  );
  return entries.length > 0 ? { entries, source: 'typo', phrase, score: SCORES.typo } : undefined;
};

const wordNetLink = (lexicon: Lexicon, word: string): Link | undefined => {
  const database = lexicalDatabase();
  if (!database) return undefined;
  for (const source of ['synonym', 'broader'] as const) {
    const found = new Map<string, Entry[]>();
    const related = database.related(word, 'n', 2);
    for (const other of source === 'synonym' ? related.synonyms : related.broader) {
      // A unit is said as itself: "loads" (tons, lots) is no amount in tonnes.
      if (unitSaid(other)) continue;
      // A broader term names a relation only ("kittens" → cat); a column needs a synonym.
      const entries = linkable(lexicon.phrases.get(phraseKey(other.split(' ')))).filter(
        (entry) => source === 'synonym' || entry.kind === 'relation',
      );
      if (entries.length > 0) found.set(other, entries);
    }
    if (found.size === 0) continue;
    const phrase = [...found.keys()][0]!;
    const entries = [...found.values()].flat();
    return {
      entries: downgraded(entries, source === 'synonym' ? 2 : 1),
      source,
      phrase,
      score: SCORES[source],
    };
  }
  return undefined;
};

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every string one deletion, transposition, substitution or insertion away from `word`. */
const editsOf = (word: string): Set<string> => {
  const edits = new Set<string>();
  for (let index = 0; index <= word.length; index += 1) {
    const [head, tail] = [word.slice(0, index), word.slice(index)];
    if (tail) edits.add(head + tail.slice(1));
    if (tail.length > 1) edits.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of LETTERS) {
      if (tail && letter !== tail[0]) edits.add(head + letter + tail.slice(1));
      edits.add(head + letter + tail);
    }
  }
  edits.delete(word);
  return edits;
};

/**
 * "custmers" → customers → (a synonym of) owners: a word in no dictionary, one edit from exactly
 * one dictionary word that links to the schema, by name or through WordNet.
 */
const spellingLink = (lexicon: Lexicon, word: string): Link | undefined => {
  const database = lexicalDatabase();
  if (!database || word.length < 5 || !/^[a-z]+$/.test(word)) return undefined;
  const links = new Map<string, Link>();
  for (const candidate of editsOf(word)) {
    if (database.readings(candidate).length === 0) continue;
    const named = linkable(lexicon.phrases.get(phraseKey([candidate])));
    const link: Link | undefined =
      named.length > 0
        ? { entries: named, source: 'typo', phrase: candidate, score: SCORES.typo }
        : wordNetLink(lexicon, candidate);
    if (link)
      links.set(
        JSON.stringify(link.entries.map((entry) => [entry.kind, 'table' in entry ? entry.table : ''])),
        link,
      );
  }
  if (links.size !== 1) return undefined;
  const [link] = links.values();
  return { ...link!, source: 'typo', score: SCORES.typo * link!.score };
};

/** Words for people in general: never read as one relation of people ("people" is not owners). */
const generalPeople = new Set(['person', 'people', 'individual', 'someone', 'somebody', 'human', 'folk']);

/** Relations by the words one step broader than their one-word name (cached per lexicon). */
const kindsOfRelations = new WeakMap<Lexicon, Map<string, Set<string>>>();
const relationsByKind = (lexicon: Lexicon, database: LexicalDatabase): Map<string, Set<string>> => {
  let kinds = kindsOfRelations.get(lexicon);
  if (!kinds) {
    kinds = new Map();
    for (const relation of lexicon.relations.values()) {
      if (relation.one.includes(' ')) continue;
      for (const kind of database.related(relation.one, 'n', 1).direct) {
        kinds.set(kind, (kinds.get(kind) ?? new Set()).add(relation.key));
      }
    }
    kindsOfRelations.set(lexicon, kinds);
  }
  return kinds;
};

/**
 * "animals" for pets, "doctors" for veterinarians: a word one step broader than exactly one
 * relation's name (in its commonest sense) stands for that relation.
 */
const narrowerLink = (lexicon: Lexicon, word: string): Link | undefined => {
  const database = lexicalDatabase();
  const noun = database?.readings(word).find((reading) => reading.wordClass === 'n');
  if (!database || !noun || generalPeople.has(noun.lemma)) return undefined;
  const tables = relationsByKind(lexicon, database).get(noun.lemma);
  if (tables?.size !== 1) return undefined;
  const [table] = tables;
  return {
    entries: [{ kind: 'relation', table: table!, rank: 1 }],
    source: 'narrower',
    phrase: noun.lemma,
    score: SCORES.narrower,
  };
};

/**
 * "machines" for equipment described as "Machinery owned by the co-op", "plots" for fields
 * ("Fields / plots"), "payouts" for claim payments ("Payouts made on claims"): a word that is what
 * a relation's description calls its rows — the same noun, a WordNet synonym of it, or a word one
 * step broader than it ("machine" of machinery) — stands for that relation, below every name. A
 * name several descriptions give stands for none of them here.
 */
const describedLink = (lexicon: Lexicon, word: string): Link | undefined => {
  const named = relationsByDescribedName(lexicon);
  if (named.size === 0) return undefined;
  const base = singular(word);
  if (emptyNouns.has(word) || emptyNouns.has(base) || generalPeople.has(base)) return undefined;
  const database = lexicalDatabase();
  const nouns = (database?.readings(word) ?? []).filter((reading) => reading.wordClass === 'n');
  // A word in the dictionary links when it is used as a noun: mostly ("machines"), or as the
  // plural of a noun in use ("shows", "loads"); not "change" in "how did sales change".
  const noun =
    database?.dominantClass(word) === 'n' ||
    (base !== word &&
      (database?.readings(base) ?? []).some((reading) => reading.wordClass === 'n' && reading.tagged > 0));
  if (database && database.readings(word).length > 0 && !noun) return undefined;
  const forms = new Set([word, base, ...nouns.map((reading) => reading.lemma)]);
  let found = [...forms].find((form) => named.has(form));
  if (!found && database) {
    const synonyms = new Set([...forms].flatMap((form) => database.related(form, 'n', 2).synonyms));
    found = [...named.keys()].find(
      (name) =>
        synonyms.has(name) ||
        database.related(name, 'n', 2).synonyms.some((other) => forms.has(other)) ||
        database.related(name, 'n', 1).direct.some((other) => forms.has(other)),
    );
  }
  // A name several descriptions give ("Loads weighed in", "Outbound lorry loads") links to none of
  // them here; the readings offer each (readings.ts).
  if (!found || named.get(found)!.size !== 1) return undefined;
  return {
    entries: [...named.get(found)!].map((table): Entry => ({ kind: 'relation', table, rank: 1 })),
    source: 'described',
    phrase: found,
    score: SCORES.described,
  };
};

/**
 * "diferent", "currenly": a word in no dictionary one edit from a word that says nothing about the
 * data is that word (six letters or more, so that short words are not guessed at).
 */
export const misspelledFiller = (word: string): boolean => {
  const database = lexicalDatabase();
  if (!database || word.length < 6 || !/^[a-z]+$/.test(word) || database.readings(word).length > 0)
    return false;
  for (const candidate of editsOf(word)) {
    if (candidate.length >= 6 && (emptyAdjectives.has(candidate) || emptyNouns.has(candidate))) return true;
  }
  return false;
};

/** The verb a word is an inflected form of ("voided" → void, "dumped" → dump), if it is one. */
const verbOf = (database: LexicalDatabase, word: string): string | undefined =>
  database.readings(word).find((reading) => reading.wordClass === 'v' && reading.lemma !== word)?.lemma;

/**
 * The state-like one-word sampled values by the verb they say a state of, per lexicon: an
 * inflected form ('dumped' → dump, 'cancelled' → cancel) or an adjective ('void', 'open'); never
 * a bare noun or verb ('drill', 'phone'), which names a thing rather than what happened to it.
 */
const valueForms = new WeakMap<Lexicon, Map<string, Entry[]>>();
const valuesByVerb = (lexicon: Lexicon, database: LexicalDatabase): Map<string, Entry[]> => {
  let forms = valueForms.get(lexicon);
  if (!forms) {
    forms = new Map();
    for (const relation of lexicon.relations.values()) {
      for (const column of relation.columns) {
        if (column.kind !== 'text' || column.key) continue;
        for (const value of column.samples) {
          if (!/^[a-z]{3,20}$/i.test(value)) continue;
          const lower = value.toLowerCase();
          const verb = verbOf(database, lower) ?? (database.dominantClass(lower) === 'a' ? lower : undefined);
          if (verb === undefined) continue;
          const entries = forms.get(verb) ?? [];
          entries.push({ kind: 'value', table: relation.key, column: column.name, value });
          forms.set(verb, entries);
        }
      }
    }
    valueForms.set(lexicon, forms);
  }
  return forms;
};

/** The state values a verb says, itself or through a synonym of its two commonest senses. */
const statesOfVerb = (
  lexicon: Lexicon,
  database: LexicalDatabase,
  verb: string,
  written: string,
): Entry[] => {
  const byVerb = valuesByVerb(lexicon, database);
  const own = (byVerb.get(verb) ?? []).filter(
    (entry) => entry.kind === 'value' && entry.value.toLowerCase() !== written,
  );
  if (own.length > 0) return own;
  // "refused" → reject → 'rejected'; "called off" → cancel → 'cancelled'.
  // (A phrasal verb's senses are few and specific: three of them.)
  const senses = verb.includes(' ') ? 3 : 2;
  const synonyms = database.related(verb, 'v', senses).synonyms.filter((synonym) => synonym !== verb);
  const found = new Map<string, Entry>();
  for (const synonym of synonyms)
    for (const entry of byVerb.get(synonym) ?? [])
      if (entry.kind === 'value') found.set(`${entry.table}.${entry.column}\u0000${entry.value}`, entry);
  return [...found.values()];
};

/** The link of the state values a verb says, over `span` words, if it says any. */
const stateLink = (entries: Entry[], span?: number): Link | undefined => {
  const [first] = entries;
  if (first?.kind !== 'value') return undefined;
  return {
    entries,
    source: 'form',
    phrase: first.value.toLowerCase(),
    score: SCORES.form,
    ...(span === undefined ? {} : { span }),
  };
};

/** An inflected verb that says a state a column holds in another form ("voided" → 'void'). */
const formLink = (lexicon: Lexicon, database: LexicalDatabase, word: string): Link | undefined => {
  const verb = verbOf(database, word);
  return verb === undefined ? undefined : stateLink(statesOfVerb(lexicon, database, verb, word));
};

/**
 * An inflected phrasal verb that says a state ("called off" → call off → cancel → 'cancelled',
 * "turned away" → 'rejected'): the two words, as one link.
 */
export const phrasalLink = (lexicon: Lexicon, first: string, second: string): Link | undefined => {
  const database = lexicalDatabase();
  if (!database || !VERB_PARTICLES.has(second)) return undefined;
  const verb = verbOf(database, first);
  if (verb === undefined) return undefined;
  const phrasal = `${verb} ${second}`;
  if (!database.readings(phrasal).some((reading) => reading.wordClass === 'v')) return undefined;
  return stateLink(statesOfVerb(lexicon, database, phrasal, `${first} ${second}`), 2);
};

/** A word of the question the index does not know, linked to the schema when it can be. */
export const linkWord = (lexicon: Lexicon, word: string): Link | undefined => {
  const database = lexicalDatabase();
  const known = database ? database.readings(word).length > 0 : true;
  if (known)
    return (
      (database ? formLink(lexicon, database, word) : undefined) ??
      wordNetLink(lexicon, word) ??
      narrowerLink(lexicon, word) ??
      describedLink(lexicon, word)
    );
  return typoLink(lexicon, word) ?? describedLink(lexicon, word) ?? spellingLink(lexicon, word);
};

// ---- filler --------------------------------------------------------------------------------------

/** Nouns that say nothing about the data ("in the database", "order the results"). */
const emptyNouns = new Set(
  `database databases db system systems file files record records result results data table tables entry entries
  information info detail details list lists everything anything something thing things stuff moment term terms
  basis respect question questions answer answers output overview summary report breakdown listing rundown
  figure figures count counts amount stats statistics metric metrics number numbers
  currently still ever already yet presently altogether`
    .split(/\s+/)
    .filter(Boolean),
);
// ("number", "count" and "amount" are read by the scanner before they get here when they mean
// something.)

/** Adjectives a question may carry without changing what it asks. */
const emptyAdjectives = new Set(
  `current overall entire whole individual respective corresponding associated available existing various
  specific particular given certain actual different distinct unique separate full complete listed related
  own registered recorded known real actual present total general main several single`
    .split(/\s+/)
    .filter(Boolean),
);

/** Verbs that ask for something the engine does not do (a change, a comparison, a prediction). */
const meaningfulVerbs = new Set(
  `change vary differ compare increase decrease grow rise drop fall correlate predict forecast expect estimate
  start begin end contain include exclude mention like love hate prefer recommend improve decline fluctuate
  trend cancel double triple halve exceed match resemble share overlap repeat return`
    .split(/\s+/)
    .filter(Boolean),
);

/** Adverbs that change what is asked. */
const meaningfulAdverbs = new Set(
  `no none nothing nobody nor neither without less least never not before after ago later earlier together again once twice always usually rarely seldom often
  mostly mainly especially except instead else otherwise yet still already soon recently`
    .split(/\s+/)
    .filter(Boolean),
);

export type WordRole = 'filler' | 'content';

/**
 * Whether a word that links to nothing can be skipped: a verb, an adverb or an empty noun or
 * adjective; a noun, another adjective or a word in no dictionary is content that was not
 * understood. Without the lexical database only the fixed lists decide.
 */
export const roleOf = (word: string): WordRole => {
  if (emptyNouns.has(word) || emptyAdjectives.has(word)) return 'filler';
  const database = lexicalDatabase();
  if (!database) return 'content';
  const wordClass: WordClass | undefined = database.dominantClass(word);
  if (wordClass === undefined) return 'content';
  if (wordClass === 'v') {
    const readings = database.readings(word);
    const verb = readings.find((reading) => reading.wordClass === 'v');
    const noun = readings.find((reading) => reading.wordClass === 'n');
    // A bare form that is also a noun in use ("harbor", "visit") may be a name: only inflected
    // forms ("published", "serving") and words seldom used as nouns ("serve") are verbs here.
    const inflected = verb !== undefined && verb.lemma !== word;
    if (!inflected && noun !== undefined && noun.tagged > 0) return 'content';
    return meaningfulVerbs.has(verb?.lemma ?? word) ? 'content' : 'filler';
  }
  if (wordClass === 'r') return meaningfulAdverbs.has(word) ? 'content' : 'filler';
  return 'content';
};
