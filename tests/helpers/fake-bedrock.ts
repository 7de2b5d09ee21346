// A local Amazon Bedrock Runtime over HTTP/2 (cleartext, as the SDK's NodeHttp2Handler speaks it
// to an http:// endpoint), answering the Converse API (POST /model/{modelId}/converse) with
// queued replies in Bedrock's real response shape and keeping every request it received. What
// the model engine tests use to read the prompts the Bedrock engine sends on the wire, not only
// the commands it builds.
import { createServer, type Http2Server, type IncomingHttpHeaders } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';

export interface ConverseRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    system?: { text?: string }[];
    messages: { role: string; content: { text?: string }[] }[];
    inferenceConfig?: Record<string, unknown>;
  };
}

export interface FakeBedrock {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  requests: ConverseRequest[];
  /** Queues assistant texts, one per request; a request with none queued gets a 500. */
  respond(...texts: string[]): void;
  reset(): void;
  /** A client of this server (static credentials, us-east-1). */
  client(): BedrockRuntimeClient;
  close(): Promise<void>;
}

/** The system text and the first user message of a recorded Converse request, as one prompt. */
export const converseText = (request: ConverseRequest): string =>
  [
    ...(request.body.system ?? []).map((block) => block.text ?? ''),
    ...request.body.messages.flatMap((message) => message.content.map((block) => block.text ?? '')),
  ].join('\n');

export const startFakeBedrock = async (): Promise<FakeBedrock> => {
  const requests: ConverseRequest[] = [];
  let queue: string[] = [];
  const clients: BedrockRuntimeClient[] = [];
  const server: Http2Server = createServer();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const path = String(headers[':path'] ?? '');
      let body: ConverseRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = { messages: [] };
      }
      requests.push({ path, headers, body });
      const text = queue.shift();
      if (!/^\/model\/[^/]+\/converse$/.test(path) || text === undefined) {
        stream.respond({
          ':status': 500,
          'content-type': 'application/json',
          'x-amzn-errortype': 'InternalServerException',
        });
        stream.end(JSON.stringify({ message: 'no response queued' }));
        return;
      }
      const input = JSON.stringify(body).length;
      stream.respond({
        ':status': 200,
        'content-type': 'application/json',
        'x-amzn-requestid': `req-${requests.length}`,
      });
      stream.end(
        JSON.stringify({
          output: { message: { role: 'assistant', content: [{ text }] } },
          stopReason: 'end_turn',
          usage: {
            inputTokens: Math.ceil(input / 4),
            outputTokens: Math.ceil(text.length / 4),
            totalTokens: 0,
          },
          metrics: { latencyMs: 5 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    requests,
    respond: (...texts) => {
      queue.push(...texts);
    },
    reset: () => {
      queue = [];
      requests.length = 0;
    },
    client: () => {
      const client = new BedrockRuntimeClient({
        endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
        maxAttempts: 1,
      });
      clients.push(client);
      return client;
    },
    close: async () => {
      for (const client of clients) client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
