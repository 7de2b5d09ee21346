// Server-sent events framing and the frame stream (lib/stream/sse.ts): one `data:` line per JSON
// payload, named events, `: ping` after an idle interval, a producer held back while its reader
// is behind, a reader that goes away (the signal aborts, and the stream closes only once the
// producer has finished), and a producer that fails (its error frame ends the stream).
import type { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { SSE_HEADERS, sseData, sseDone, sseError, sseEvent, ssePing, sseStream } from '#lib/stream/sse.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Everything a stream sends until it ends, as text. */
const readAll = async (stream: Readable): Promise<string> => {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
};

const parse = (text: string) => {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event), onComment: (c) => comments.push(c) });
  parser.feed(text);
  return { events, comments };
};

const never = (): string => {
  throw new Error('unexpected failure');
};

describe('framing', () => {
  it('writes each JSON payload on one data line, line breaks escaped', () => {
    expect(sseData({ content: 'one\ntwo\r\nthree\u2028' })).toBe(
      'data: {"content":"one\\ntwo\\r\\nthree\u2028"}\n\n',
    );
    const { events } = parse(sseData({ content: 'one\ntwo' }));
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.data)).toEqual({ content: 'one\ntwo' });
  });

  it('names done and error events, and pings as a comment', () => {
    expect(sseEvent('x', [1])).toBe('event: x\ndata: [1]\n\n');
    expect(sseDone({ row_count: 1 })).toBe('event: done\ndata: {"row_count":1}\n\n');
    expect(sseError({ success: false })).toBe('event: error\ndata: {"success":false}\n\n');
    expect(ssePing()).toBe(': ping\n\n');
    expect(parse(ssePing()).comments).toEqual(['ping']);
  });

  it('declares an uncached event stream that proxies must not buffer', () => {
    expect(SSE_HEADERS).toEqual({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
    });
  });
});

describe('the frame stream', () => {
  it('sends the frames in order, then the last one, then ends', async () => {
    const stream = sseStream(async ({ send }) => {
      await send(sseData({ content: 'a' }));
      await send(sseData({ content: 'b' }));
      return sseDone({ ok: true });
    }, never);
    const { events } = parse(await readAll(stream));
    expect(events.map((e) => [e.event, e.data])).toEqual([
      [undefined, '{"content":"a"}'],
      [undefined, '{"content":"b"}'],
      ['done', '{"ok":true}'],
    ]);
  });

  it('delivers each frame when it is sent, not at the end', async () => {
    const stream = sseStream(async ({ send }) => {
      for (const content of ['a', 'b', 'c']) {
        await send(sseData({ content }));
        await sleep(60);
      }
      return sseDone({});
    }, never);
    const arrivals: number[] = [];
    const started = performance.now();
    for await (const _chunk of stream) arrivals.push(performance.now() - started);
    expect(arrivals.length).toBeGreaterThanOrEqual(4);
    expect(arrivals[0]!).toBeLessThan(40);
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(150);
  });

  it('pings after the interval without a frame, and not while frames flow', async () => {
    // Arrange: silent for 130 ms with a 40 ms interval, then frames 10 ms apart
    const stream = sseStream(
      async ({ send }) => {
        await sleep(130);
        for (let i = 0; i < 5; i++) {
          await send(sseData({ content: String(i) }));
          await sleep(10);
        }
        return sseDone({});
      },
      never,
      40,
    );

    // Act
    const text = await readAll(stream);

    // Assert
    const beforeFirst = text.slice(0, text.indexOf('data:'));
    expect(beforeFirst.match(/: ping\n\n/g)?.length).toBeGreaterThanOrEqual(2);
    expect(text.slice(text.indexOf('data:'))).not.toContain(': ping');
    expect(parse(text).events).toHaveLength(6);
  });

  it('holds the producer back while the reader is behind', async () => {
    // Arrange: 200 frames of 1 KB and nobody reading yet
    let sent = 0;
    const frame = sseData({ content: 'x'.repeat(1_000) });
    const stream = sseStream(async ({ send }) => {
      for (let i = 0; i < 200; i++) {
        await send(frame);
        sent++;
      }
      return sseDone({});
    }, never);
    // Starts the producer without consuming anything.
    stream.read(0);
    await sleep(50);

    // Assert: the producer stopped once the stream's buffer was full, far short of 200 frames
    const fits = Math.ceil(stream.readableHighWaterMark / Buffer.byteLength(frame));
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(fits + 1);
    expect(sent).toBeLessThan(200);

    // Act: reading lets it go on to the end
    const { events } = parse(await readAll(stream));
    expect(sent).toBe(200);
    expect(events).toHaveLength(201);
  });

  it('aborts the producer when the reader goes away, and closes only once it has finished', async () => {
    // Arrange
    const order: string[] = [];
    let signal: AbortSignal | undefined;
    const stream = sseStream(async (producer) => {
      signal = producer.signal;
      await producer.send(sseData({ content: 'a' }));
      await new Promise((resolve) => producer.signal.addEventListener('abort', resolve, { once: true }));
      order.push('aborted');
      // What the producer stores on the way out takes a moment.
      await sleep(50);
      await producer.send(sseData({ content: 'ignored' }));
      order.push('producer finished');
      return sseDone({});
    }, never);
    stream.on('close', () => order.push('closed'));
    await new Promise((resolve) => stream.once('data', resolve));

    // Act
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));

    // Assert
    expect(signal?.aborted).toBe(true);
    expect(order).toEqual(['aborted', 'producer finished', 'closed']);
  });

  it('ends with the failure frame when the producer throws after frames went out', async () => {
    const failures: unknown[] = [];
    const stream = sseStream(
      async ({ send }) => {
        await send(sseData({ content: 'a' }));
        throw new Error('the database went away');
      },
      (error) => {
        failures.push(error);
        return sseError({ success: false, error: { code: 'DB_CONNECTION_FAILED' } });
      },
    );
    const { events } = parse(await readAll(stream));
    expect(events.map((e) => e.event)).toEqual([undefined, 'error']);
    expect(JSON.parse(events[1]!.data)).toEqual({ success: false, error: { code: 'DB_CONNECTION_FAILED' } });
    expect((failures[0] as Error).message).toBe('the database went away');
  });

  it('does not start the producer before the stream is read', async () => {
    let started = false;
    const stream = sseStream(async () => {
      started = true;
      return sseDone({});
    }, never);
    await sleep(20);
    expect(started).toBe(false);
    await readAll(stream);
    expect(started).toBe(true);
  });
});
