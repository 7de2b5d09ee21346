// Server-sent events framing (docs/design.md "Streaming"; https://html.spec.whatwg.org/multipage/server-sent-events.html):
// `data: <json>\n\n` for each piece of an answer, `event: done` and `event: error` with a JSON
// payload, and `: ping` comments that keep an idle connection open. JSON.stringify never emits a
// raw line break, so each payload is one `data:` line.
import { Readable } from 'node:stream';

/** How long a stream may stay silent before a `: ping` comment goes out. */
export const PING_INTERVAL_MS = 15_000;

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  // Proxies (nginx and the like) must pass each event through as it is written.
  'X-Accel-Buffering': 'no',
} as const;

/** An unnamed event (a `message` to the client) carrying JSON. */
export const sseData = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;

/** A named event carrying JSON. */
export const sseEvent = (event: string, payload: unknown): string =>
  `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;

export const sseDone = (payload: unknown): string => sseEvent('done', payload);

/** `payload` is the error envelope of docs/design.md "Errors". */
export const sseError = (payload: unknown): string => sseEvent('error', payload);

/** A comment line: ignored by clients, it keeps proxies and load balancers from timing out. */
export const ssePing = (): string => ': ping\n\n';

export interface SseProducer {
  /** Writes one frame; resolves at once, or once a reader that fell behind has caught up. */
  send(frame: string): Promise<void>;
  /** Aborted when the reader goes away before the stream ended. */
  signal: AbortSignal;
}

/**
 * A Readable of SSE frames from `produce`, which sends frames and returns the last one (or
 * throws, and `onFailure` gives the frame for the error). Frames go out as they are sent; `send`
 * waits while the reader is behind, so a producer never runs far ahead of a slow client. A
 * `: ping` goes out after `pingIntervalMs` without a frame. When the reader goes away (the stream
 * is destroyed before its end), `signal` aborts at once and the stream closes only once `produce`
 * has finished, so that what it stores on the way out is stored while the function still runs.
 */
export const sseStream = (
  produce: (producer: SseProducer) => Promise<string>,
  onFailure: (error: unknown) => string,
  pingIntervalMs = PING_INTERVAL_MS,
): Readable => {
  const controller = new AbortController();
  let resume: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  const wakeProducer = () => {
    const pending = resume;
    resume = undefined;
    pending?.();
  };
  const schedulePing = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (finished || controller.signal.aborted) return;
      readable.push(ssePing());
      schedulePing();
    }, pingIntervalMs);
  };

  let running: Promise<void> | undefined;
  const readable = new Readable({
    read: () => {
      wakeProducer();
      running ??= start();
    },
    destroy: (error, callback) => {
      clearTimeout(timer);
      if (finished || !running) {
        callback(error);
        return;
      }
      controller.abort();
      wakeProducer();
      running.then(() => callback(error));
    },
  });

  const producer: SseProducer = {
    signal: controller.signal,
    send: async (frame) => {
      if (controller.signal.aborted) return;
      schedulePing();
      if (!readable.push(frame)) await new Promise<void>((resolve) => (resume = resolve));
    },
  };

  const start = async (): Promise<void> => {
    schedulePing();
    let last: string;
    try {
      last = await produce(producer);
    } catch (error) {
      last = onFailure(error);
    }
    finished = true;
    clearTimeout(timer);
    if (controller.signal.aborted || readable.destroyed) return;
    readable.push(last);
    readable.push(null);
  };

  return readable;
};
