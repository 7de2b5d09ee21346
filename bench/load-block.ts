// The load figures of `npm run load` inside BENCHMARKS.md, between `<!-- load:start -->` and
// `<!-- load:end -->`: `npm run load` replaces the block in place, and `npm run bench`, which
// rewrites the file, carries the last one over (bench/run.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOAD_START = '<!-- load:start -->';
export const LOAD_END = '<!-- load:end -->';

/** The block as it stands in `benchmarks`, markers included and a newline after; '' when none. */
export const blockOf = (benchmarks: string): string => {
  const start = benchmarks.indexOf(LOAD_START);
  const end = benchmarks.indexOf(LOAD_END);
  return start !== -1 && end > start ? `${benchmarks.slice(start, end + LOAD_END.length)}\n` : '';
};

/** The current block of `<root>/BENCHMARKS.md`; '' when the file or the block does not exist. */
export const loadBlock = (root: string): string => {
  const file = join(root, 'BENCHMARKS.md');
  return existsSync(file) ? blockOf(readFileSync(file, 'utf8')) : '';
};

/** `benchmarks` with its load block replaced by `block` (appended when it has none). */
export const withLoadBlock = (benchmarks: string, block: string): string => {
  if (block === '') return benchmarks;
  const start = benchmarks.indexOf(LOAD_START);
  const end = benchmarks.indexOf(LOAD_END);
  if (start !== -1 && end > start) {
    const rest = benchmarks.slice(end + LOAD_END.length).replace(/^\n/, '');
    return `${benchmarks.slice(0, start)}${block}${rest}`;
  }
  return `${benchmarks.trimEnd()}\n\n${block}`;
};

/** A block from its Markdown body (a `##` section). */
export const toLoadBlock = (markdown: string): string => `${LOAD_START}\n${markdown.trim()}\n${LOAD_END}\n`;
