// The local gateway hands response-streaming handlers a real HTTP response stream: headers from
// the prelude, chunks as they are written, and an aborted stream when the client goes away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
// Loaded after the gateway installed the `awslambda` global the fixture needs at import.
let observed: { aborted: number; written: number };

beforeAll(async () => {
  gateway = await startTestGateway([
    {
      functionName: 'slowStream',
      handler: 'tests/e2e/fixtures/slow-stream.handler',
      method: 'GET',
      path: '/test/stream',
      streaming: true,
      timeoutSeconds: 29,
    },
  ]);
  ({ observed } = await import('./fixtures/slow-stream.ts'));
});
afterAll(() => gateway?.close());

describe('local gateway streaming', () => {
  it('passes status and headers through and delivers each chunk as it is written', async () => {
    const started = performance.now();
    const response = await fetch(`${gateway.url}/test/stream`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const arrivals: { at: number; text: string }[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      arrivals.push({ at: performance.now() - started, text: decoder.decode(value) });
    }
    const all = arrivals.map((a) => a.text).join('');
    expect(all.match(/data: /g)).toHaveLength(5);
    // Five chunks 150 ms apart: the first must arrive long before the last (no buffering).
    expect(arrivals.length).toBeGreaterThanOrEqual(3);
    expect(arrivals.at(-1)!.at - arrivals[0]!.at).toBeGreaterThan(400);
  });

  it('stops the handler when the client disconnects', async () => {
    const before = { ...observed };
    const controller = new AbortController();
    const response = await fetch(`${gateway.url}/test/stream`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(observed.aborted).toBe(before.aborted + 1);
    expect(observed.written - before.written).toBeLessThan(5);
  });
});
