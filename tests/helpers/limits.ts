// Helpers for tests of the rate limiter that run on the real clock (the gateway, the chain):
// the counting windows are clock minutes, so a burst that must land in one minute waits until
// the current minute has room for it.

/** Resolves once at least `neededMs` remain in the current clock minute (at most ~one minute). */
export const roomInThisMinute = async (neededMs = 8_000): Promise<void> => {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < neededMs) await new Promise((done) => setTimeout(done, left + 50));
};

/** Runs `work(i)` for i in 0..count-1, all at once. */
export const inParallel = <T>(count: number, work: (index: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: count }, (_, index) => work(index)));
