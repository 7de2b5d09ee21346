// What a packaged function loads at cold start, and whose bytes those are. The bundles carry the
// AWS SDK (serverless.yml `custom.esbuild.exclude`), so their size is the SDK's plus our own: each
// output file's linked source map tells which source every byte comes from. Used by bench (b)
// and the packaging tests, which hold the function's own code to the 150 KB budget.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Sources of the AWS SDK v3: the clients, their runtime (Smithy, the AWS crypto helpers) and the
 * packages only the SDK brings in (mnemonist and obliterator for DynamoDB's endpoint cache,
 * bowser for the user agent).
 */
export const AWS_SDK_SOURCE =
  /(^|\/)node_modules\/(@aws-sdk|@smithy|@aws-crypto|mnemonist|obliterator|bowser)\//;

export interface SourceBytes {
  /** Bytes of the output. */
  total: number;
  /** Of which mapped to a source of the AWS SDK. */
  sdk: number;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]));

/** The fields of one source-map segment (base64 VLQ). */
const segmentFields = (segment: string): number[] => {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char);
    if (digit === undefined) throw new Error(`not a source-map segment: ${segment}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return fields;
};

/**
 * Bytes of `code` by origin, from its source map: each mapped span (a segment up to the next one
 * on its line) counts for the segment's source. What no source maps to (the banner, the imports
 * and exports between chunks, line ends) is the file's glue, shared in proportion to its mapped
 * bytes: a chunk of SDK code alone is the SDK's, glue and all.
 */
export const sourceBytes = (code: string, map: { sources: string[]; mappings: string }): SourceBytes => {
  const isSdk = map.sources.map((source) => AWS_SDK_SOURCE.test(source.replace(/\\/g, '/')));
  const lines = code.split('\n');
  const mappingLines = map.mappings.split(';');
  let source = 0;
  let sdk = 0;
  let mapped = 0;
  for (const [index, line] of lines.entries()) {
    const segments = (mappingLines[index] ?? '').split(',').filter(Boolean);
    let column = 0;
    const spans: { start: number; source: number | undefined }[] = [];
    for (const segment of segments) {
      const fields = segmentFields(segment);
      column += fields[0] ?? 0;
      if (fields.length >= 4) source += fields[1] ?? 0;
      spans.push({ start: column, source: fields.length >= 4 ? source : undefined });
    }
    for (const [i, span] of spans.entries()) {
      if (span.source === undefined) continue;
      const bytes = Buffer.byteLength(line.slice(span.start, spans[i + 1]?.start ?? line.length));
      mapped += bytes;
      if (isSdk[span.source]) sdk += bytes;
    }
  }
  const total = Buffer.byteLength(code);
  return { total, sdk: mapped === 0 ? 0 : Math.round(sdk + ((total - mapped) * sdk) / mapped) };
};

/** The output files a bundle imports statically (itself included): what its cold start loads. */
export const coldStartFiles = (entry: string): string[] => {
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+)"/g))
      visit(resolve(dirname(file), match[1]!));
  };
  visit(entry);
  return [...files];
};

/** Bytes a bundle loads at cold start (its static imports included), the AWS SDK's apart. */
export const coldStartBytes = (entry: string): SourceBytes & { files: number } => {
  const files = coldStartFiles(entry);
  let total = 0;
  let sdk = 0;
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    const bytes = sourceBytes(code, JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    total += bytes.total;
    sdk += bytes.sdk;
  }
  return { total, sdk, files: files.length };
};
