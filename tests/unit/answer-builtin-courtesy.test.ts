// The builtin engine strips a closing "please"/"thanks" with a scan, in time linear in the
// question's length: the regular expression it replaced backtracked cubically on a long run of
// spaces (about 157 ms per request at the 1,000-character cap, a cheap way to burn CPU).
import { describe, expect, it } from 'vitest';
import { withoutTrailingCourtesy } from '#lib/answer/builtin/index.ts';

/** The fastest of several runs (µs), so that a busy machine does not decide the comparison. */
const fastest = (run: () => void, times = 7): number => {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
};

describe('withoutTrailingCourtesy', () => {
  it.each([
    ['How many orders were placed in 2025, please?', 'How many orders were placed in 2025'],
    ['revenue per category thanks!', 'revenue per category'],
    ['Top customers, thank you.', 'Top customers'],
    ['orders by month ?!', 'orders by month'],
    ['orders by month?,', 'orders by month?'],
    ['customers who displease', 'customers who displease'],
    ['thx', ''],
  ])('%j → %j', (question, core) => {
    expect(withoutTrailingCourtesy(question)).toBe(core);
  });

  it('takes time linear in the length on the worst input (a long run of spaces before a letter)', () => {
    const worst = (n: number) => `a${' '.repeat(n)}x`;
    const short = worst(500);
    const long = worst(2_000);
    const shortMs = fastest(() => withoutTrailingCourtesy(short));
    const longMs = fastest(() => withoutTrailingCourtesy(long));
    // Four times the input: linear is about 4× the time, cubic 64×. The bound leaves room for noise.
    expect(longMs).toBeLessThan(Math.max(shortMs * 16, 1));
    expect(withoutTrailingCourtesy(long)).toBe(long);
  });
});
