// What the Lambda runtime and API Gateway give a function, built locally: REST API (v1) proxy
// events, a Lambda context, handler loading, and the `awslambda` global that response-streaming
// handlers use (streamifyResponse, HttpResponseStream.from with its 8-NUL-byte prelude).
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

export interface RestEventInput {
  method: string;
  /** The concrete path, e.g. /api/v1/chat/123/history. */
  path: string;
  /** The route template, e.g. /api/v1/chat/{conversation_id}/history. */
  resource: string;
  headers?: Record<string, string | string[] | undefined>;
  query?: URLSearchParams;
  pathParameters?: Record<string, string> | null;
  body?: string | null;
  sourceIp?: string;
  stage?: string;
}

export const restEvent = (input: RestEventInput): APIGatewayProxyEvent => {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    multiValueHeaders[name] = values;
    headers[name] = values[values.length - 1] ?? '';
  }
  let queryStringParameters: Record<string, string> | null = null;
  let multiValueQueryStringParameters: Record<string, string[]> | null = null;
  for (const [name, value] of input.query ?? []) {
    queryStringParameters ??= {};
    multiValueQueryStringParameters ??= {};
    queryStringParameters[name] = value;
    multiValueQueryStringParameters[name] = [...(multiValueQueryStringParameters[name] ?? []), value];
  }
  const stage = input.stage ?? 'local';
  const now = new Date();
  return {
    resource: input.resource,
    path: input.path,
    httpMethod: input.method,
    headers,
    multiValueHeaders,
    queryStringParameters,
    multiValueQueryStringParameters,
    pathParameters: input.pathParameters ?? null,
    stageVariables: null,
    body: input.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: input.method,
      path: `/${stage}${input.path}`,
      stage,
      requestId: randomUUID(),
      requestTime: now.toUTCString(),
      requestTimeEpoch: now.getTime(),
      resourceId: 'local',
      resourcePath: input.resource,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: input.sourceIp ?? '127.0.0.1',
        user: null,
        userAgent: headers['user-agent'] ?? headers['User-Agent'] ?? null,
        userArn: null,
      },
    },
  };
};

export const lambdaContext = (functionName: string, timeoutSeconds = 29): Context => {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const requestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/${requestId}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

/** Loads `functions/x.handler` from its TypeScript source (Node strips the types). */
export const loadHandler = async (
  root: string,
  handler: string,
): Promise<(...args: unknown[]) => unknown> => {
  const dot = handler.lastIndexOf('.');
  const file = resolve(root, `${handler.slice(0, dot)}.ts`);
  const exported = handler.slice(dot + 1);
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const fn = module[exported];
  if (typeof fn !== 'function') throw new Error(`${file} does not export a function named ${exported}`);
  return fn as (...args: unknown[]) => unknown;
};

// ---- Response streaming -------------------------------------------------------------------

export interface StreamPrelude {
  statusCode?: number;
  headers?: Record<string, string>;
  cookies?: string[];
}

const streamingMark = Symbol.for('tabletalk.local.streaming');
const PRELUDE_SEPARATOR = Buffer.alloc(8);

/** Whether a loaded handler was wrapped by awslambda.streamifyResponse. */
export const isStreamingHandler = (fn: unknown): boolean =>
  typeof fn === 'function' && (fn as unknown as Record<symbol, unknown>)[streamingMark] === true;

/**
 * Installs the `awslambda` global of the Node.js Lambda runtime, as far as response streaming
 * needs it. `HttpResponseStream.from` writes the JSON prelude and 8 NUL bytes, as the runtime
 * does; `ResponseStreamSink` below parses them back into a status and headers.
 */
export const installAwsLambdaGlobal = (): void => {
  const global = globalThis as { awslambda?: Record<string, unknown> };
  // Other libraries may have created the global first (@aws/lambda-invoke-store adds its
  // InvokeStore to it): the streaming members are added beside theirs.
  if (global.awslambda?.streamifyResponse) return;
  // Added to the existing object, not a copy: InvokeStore may be attached to it later.
  global.awslambda ??= {};
  Object.assign(global.awslambda, {
    streamifyResponse: (fn: (...args: unknown[]) => unknown) => {
      Object.defineProperty(fn, streamingMark, { value: true });
      return fn;
    },
    HttpResponseStream: {
      from: (stream: Writable, prelude: StreamPrelude) => {
        stream.write(Buffer.concat([Buffer.from(JSON.stringify(prelude)), PRELUDE_SEPARATOR]));
        return stream;
      },
    },
  });
};

/**
 * The response stream handed to a streaming handler: parses the optional prelude, then passes
 * every chunk through to `sink` as soon as it is written (no buffering).
 */
export class ResponseStreamSink extends Writable {
  #pending: Buffer | undefined = Buffer.alloc(0);
  readonly #onHead: (prelude: StreamPrelude) => void;
  readonly #onChunk: (chunk: Buffer) => void;

  constructor(onHead: (prelude: StreamPrelude) => void, onChunk: (chunk: Buffer) => void) {
    super();
    this.#onHead = onHead;
    this.#onChunk = onChunk;
  }

  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    try {
      if (this.#pending === undefined) {
        if (data.length > 0) this.#onChunk(data);
        callback();
        return;
      }
      const buffered = Buffer.concat([this.#pending, data]);
      const separator = buffered.indexOf(PRELUDE_SEPARATOR);
      const looksLikePrelude = buffered.length === 0 || buffered[0] === 0x7b; // '{'
      if (looksLikePrelude && separator === -1 && buffered.length < 64 * 1024) {
        this.#pending = buffered;
        callback();
        return;
      }
      this.#pending = undefined;
      if (looksLikePrelude && separator !== -1) {
        this.#onHead(JSON.parse(buffered.subarray(0, separator).toString('utf8')) as StreamPrelude);
        const rest = buffered.subarray(separator + PRELUDE_SEPARATOR.length);
        if (rest.length > 0) this.#onChunk(rest);
      } else {
        this.#onHead({});
        this.#onChunk(buffered);
      }
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.#pending !== undefined) {
      const rest = this.#pending;
      this.#pending = undefined;
      this.#onHead({});
      if (rest.length > 0) this.#onChunk(rest);
    }
    callback();
  }
}
