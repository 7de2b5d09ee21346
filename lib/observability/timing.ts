// Where an answer's time goes: loading (conversation, database, schema index, personality), the
// engine, the SQL guard, the connected database and DynamoDB storage, measured with
// performance.now() and sent as a `Server-Timing` response header
// (`load;dur=4.1, engine;dur=1.2, guard;dur=0.6, db;dur=5.3, store;dur=9.8, total;dur=22.4`), so
// a client, a browser's network panel or bench/chat.ts sees the split of every request.
// Phases may overlap (the user message is stored while the engine works): each figure is the
// time that phase took, and `total` is wall time.

export type Phase = 'load' | 'engine' | 'guard' | 'db' | 'store';

const PHASES: readonly Phase[] = ['load', 'engine', 'guard', 'db', 'store'];

export class Timings {
  readonly startedAt: number;
  private readonly clock: () => number;
  private readonly spent = new Map<Phase, number>();

  constructor(clock: () => number = () => performance.now()) {
    this.clock = clock;
    this.startedAt = clock();
  }

  add(phase: Phase, ms: number): void {
    this.spent.set(phase, (this.spent.get(phase) ?? 0) + ms);
  }

  /** Runs `work` and adds its duration to `phase` (also when it fails). */
  async measure<T>(phase: Phase, work: () => Promise<T> | T): Promise<T> {
    const started = this.clock();
    try {
      return await work();
    } finally {
      this.add(phase, this.clock() - started);
    }
  }

  get(phase: Phase): number {
    return this.spent.get(phase) ?? 0;
  }

  /** Milliseconds since the request started. */
  elapsed(): number {
    return this.clock() - this.startedAt;
  }

  /** The split in milliseconds, for logs. */
  toJSON(): Record<Phase | 'total', number> {
    const split = Object.fromEntries(PHASES.map((phase) => [phase, round(this.get(phase))]));
    return { ...(split as Record<Phase, number>), total: round(this.elapsed()) };
  }

  /** The `Server-Timing` header value. */
  header(): string {
    return [
      ...PHASES.filter((phase) => this.spent.has(phase)).map(
        (phase) => `${phase};dur=${round(this.get(phase))}`,
      ),
      `total;dur=${round(this.elapsed())}`,
    ].join(', ');
  }
}

const round = (ms: number): number => Math.round(ms * 10) / 10;
