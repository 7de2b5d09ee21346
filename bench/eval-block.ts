// The answer-quality figures of `npm run eval` inside BENCHMARKS.md: eval writes eval/RESULTS.md
// and refreshes this block; `npm run bench`, which rewrites the file, carries the last results over.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const START = '<!-- eval:start -->';
const END = '<!-- eval:end -->';

/** The block for eval/RESULTS.md, its own title turned into a section heading; '' when eval never ran. */
export const evalBlock = (root: string): string => {
  const file = join(root, 'eval/RESULTS.md');
  if (!existsSync(file)) return '';
  const results = readFileSync(file, 'utf8')
    .replace(/^# .*\n/, '')
    .trim();
  return `${START}\n## Answer quality (npm run eval)\n\n${results}\n${END}\n`;
};

/** `benchmarks` with its eval block replaced by `block` (or `block` appended). */
export const withEvalBlock = (benchmarks: string, block: string): string => {
  const start = benchmarks.indexOf(START);
  const end = benchmarks.indexOf(END);
  if (start !== -1 && end > start) {
    return `${benchmarks.slice(0, start)}${block}${benchmarks.slice(end + END.length + 1)}`;
  }
  return `${benchmarks.trimEnd()}\n\n${block}`;
};
