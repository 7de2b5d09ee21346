// The local API Gateway: serves every route of the resolved serverless config over HTTP with
// real REST API (v1) proxy events, buffered and response-streaming alike. Unknown routes and
// methods get the service's error envelope, as the deployed stage's gateway responses do.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { errorEnvelope, ServiceError } from '../lib/errors.ts';
import { corsHeaders, preflightHeaders } from '../lib/http/middleware/cors.ts';
import {
  installAwsLambdaGlobal,
  isStreamingHandler,
  lambdaContext,
  loadHandler,
  ResponseStreamSink,
  restEvent,
} from './lambda.ts';
import type { Route } from './serverless-config.ts';

/** API Gateway's own payload limit; the functions enforce the service's 1 MB limit. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

type Handler = (...args: unknown[]) => unknown;

interface CompiledRoute extends Route {
  pattern: RegExp;
  /** Per segment: 2 literal, 1 parameter, 0 greedy; compared to pick the most specific resource. */
  rank: number[];
  fn: Handler;
}

/** A file served outside the API, e.g. the widget's demo page and script (web/serve.ts). */
export interface StaticPage {
  contentType: string;
  body: () => string | Buffer | Promise<string | Buffer>;
}

/**
 * A POST route outside the API that stands for an integrator's own backend, e.g. the demo page's
 * `/demo/session` (web/serve.ts): it answers JSON with its status.
 */
export type PageAction = (request: {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}) => Promise<{ status: number; body: unknown }>;

export interface GatewayOptions {
  root: string;
  routes: Route[];
  /** GET paths served as files (`/`, `/widget.js`); API routes win over them. */
  pages?: Record<string, StaticPage>;
  /** POST paths served by a function of this process (`/demo/session`); API routes win over them. */
  actions?: Record<string, PageAction>;
  port?: number;
  host?: string;
  service?: string;
  stage?: string;
  /** Called once per request, e.g. to print an access log line. */
  onRequest?: (line: {
    method: string;
    path: string;
    status: number;
    ms: number;
    functionName?: string;
  }) => void;
}

export interface RunningGateway {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

const compile = (route: Route, fn: Handler): CompiledRoute => {
  const segments = route.path.split('/').filter(Boolean);
  const rank: number[] = [];
  const source = segments
    .map((segment) => {
      const greedy = /^\{(\w+)\+\}$/.exec(segment);
      if (greedy) {
        rank.push(0);
        return `/(?<${greedy[1]}>.+)`;
      }
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) {
        rank.push(1);
        return `/(?<${param[1]}>[^/]+)`;
      }
      rank.push(2);
      return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    })
    .join('');
  return { ...route, fn, rank, pattern: new RegExp(`^${source || '/'}/?$`) };
};

const moreSpecific = (a: number[], b: number[]): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (b[i] ?? -1) - (a[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
};

const sendEnvelope = (res: ServerResponse, error: ServiceError): void => {
  const traceId = `req_${randomUUID()}`;
  const origin = res.req?.headers.origin;
  res.writeHead(error.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Request-ID': traceId,
    ...corsHeaders(origin),
    ...error.headers,
  });
  res.end(JSON.stringify(errorEnvelope(error, traceId)));
};

const readBody = (req: IncomingMessage): Promise<Buffer | undefined> =>
  new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > GATEWAY_MAX_BODY_BYTES) {
        resolveBody(undefined);
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const writeBuffered = (res: ServerResponse, result: APIGatewayProxyResult): void => {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
    headers[name] = values.map(String);
  const body = result.isBase64Encoded
    ? Buffer.from(result.body ?? '', 'base64')
    : Buffer.from(result.body ?? '', 'utf8');
  res.writeHead(result.statusCode, headers);
  res.end(body);
};

const functionCrashed = () =>
  new ServiceError('SERVICE_UNAVAILABLE', {
    message: 'The function failed; retry later',
    headers: { 'Retry-After': '2' },
  });

export const startGateway = async (options: GatewayOptions): Promise<RunningGateway> => {
  installAwsLambdaGlobal();
  const service = options.service ?? 'tabletalk';
  const stage = options.stage ?? 'local';
  const handlers = new Map<string, Handler>();
  const compiled: CompiledRoute[] = [];
  for (const route of options.routes) {
    let fn = handlers.get(route.handler);
    if (!fn) {
      fn = await loadHandler(options.root, route.handler);
      handlers.set(route.handler, fn);
    }
    compiled.push(compile(route, fn));
  }

  const dispatch = async (req: IncomingMessage, res: ServerResponse): Promise<CompiledRoute | undefined> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let path: string;
    try {
      path = decodeURI(url.pathname);
    } catch {
      path = url.pathname;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const matching = compiled.filter((route) => route.pattern.test(url.pathname));
    const page = options.pages?.[url.pathname];
    if (matching.length === 0 && page && (method === 'GET' || method === 'HEAD')) {
      const content = await page.body();
      res.writeHead(200, { 'Content-Type': page.contentType, 'Cache-Control': 'no-cache' });
      res.end(method === 'HEAD' ? undefined : content);
      return undefined;
    }
    const action = Object.hasOwn(options.actions ?? {}, url.pathname)
      ? options.actions?.[url.pathname]
      : undefined;
    if (matching.length === 0 && action && method === 'POST') {
      const result = await action({
        headers: req.headers,
        body: (await readBody(req))?.toString('utf8') ?? '',
      });
      res.writeHead(result.status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      res.end(JSON.stringify(result.body));
      return undefined;
    }
    if (matching.length === 0) {
      sendEnvelope(res, new ServiceError('NOT_FOUND', { message: `No route for ${method} ${url.pathname}` }));
      return undefined;
    }
    const best = matching.sort((a, b) => moreSpecific(a.rank, b.rank))[0]!;
    const resource = matching.filter((route) => route.path === best.path);
    const route = resource.find((r) => r.method === method) ?? resource.find((r) => r.method === 'ANY');
    if (!route && method === 'OPTIONS') {
      // A CORS preflight, as functions/route-fallback.ts answers it in deployed stages.
      const methods = resource.map((r) => r.method);
      res.writeHead(204, {
        'X-Request-ID': `req_${randomUUID()}`,
        ...preflightHeaders(req.headers.origin, methods),
      });
      res.end();
      return undefined;
    }
    if (!route) {
      const allow = resource.map((r) => r.method).join(', ');
      sendEnvelope(
        res,
        new ServiceError('METHOD_NOT_ALLOWED', {
          message: `${method} is not allowed on ${best.path}; use ${allow}`,
          headers: { Allow: allow },
        }),
      );
      return undefined;
    }
    const body = await readBody(req);
    if (body === undefined) {
      sendEnvelope(
        res,
        new ServiceError('PAYLOAD_TOO_LARGE', { message: 'Request body is larger than 10 MB' }),
      );
      return route;
    }
    const groups = route.pattern.exec(url.pathname)?.groups ?? {};
    const pathParameters: Record<string, string> = {};
    for (const [name, value] of Object.entries(groups)) {
      try {
        pathParameters[name] = decodeURIComponent(value);
      } catch {
        pathParameters[name] = value;
      }
    }
    const event = restEvent({
      method,
      path,
      resource: route.path,
      headers: req.headers,
      query: url.searchParams,
      pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : null,
      body: body.length > 0 ? body.toString('utf8') : null,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      stage,
    });
    const context = lambdaContext(`${service}-${stage}-${route.functionName}`, route.timeoutSeconds);
    if (isStreamingHandler(route.fn)) {
      await invokeStreaming(route.fn, event, context, res);
    } else {
      try {
        writeBuffered(res, (await route.fn(event, context)) as APIGatewayProxyResult);
      } catch (error) {
        console.error(`[gateway] ${route.functionName} failed:`, error);
        sendEnvelope(res, functionCrashed());
      }
    }
    return route;
  };

  const server = createServer((req, res) => {
    const started = performance.now();
    dispatch(req, res)
      .catch((error: unknown) => {
        console.error('[gateway] request failed:', error);
        if (!res.headersSent) sendEnvelope(res, functionCrashed());
        else res.destroy();
      })
      .then((route) => {
        options.onRequest?.({
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
          ...(route ? { functionName: route.functionName } : {}),
        });
      });
  });
  server.keepAliveTimeout = 65_000;
  // What Node's HTTP parser refuses before any handler runs (headers over its 16 KB limit, a
  // malformed request line) still gets the envelope, as API Gateway's REQUEST_TOO_LARGE and
  // DEFAULT_4XX responses give it (infra/gateway-responses.yml).
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const refusal = tooLarge
      ? new ServiceError('PAYLOAD_TOO_LARGE', { message: 'Request headers are too large' })
      : new ServiceError('VALIDATION', { message: 'Malformed HTTP request' });
    const traceId = `req_${randomUUID()}`;
    const body = JSON.stringify(errorEnvelope(refusal, traceId));
    socket.end(
      `HTTP/1.1 ${refusal.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `X-Request-ID: ${traceId}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
};

/** Hands a streaming handler a response stream that writes through to the socket as it goes. */
const invokeStreaming = async (
  fn: Handler,
  event: unknown,
  context: unknown,
  res: ServerResponse,
): Promise<void> => {
  res.socket?.setNoDelay(true);
  const sink = new ResponseStreamSink(
    (prelude) => {
      const headers: Record<string, string | string[]> = { ...prelude.headers };
      if (prelude.cookies?.length) headers['Set-Cookie'] = prelude.cookies;
      res.writeHead(prelude.statusCode ?? 200, headers);
      res.flushHeaders();
    },
    (chunk) => {
      res.write(chunk);
    },
  );
  // A client that goes away ends the stream; the handler sees its writes fail and stops.
  res.on('close', () => {
    if (!res.writableFinished) sink.destroy(new Error('client disconnected'));
  });
  try {
    await fn(event, sink, context);
    if (!sink.writableEnded) sink.end();
    await new Promise<void>((done) => (sink.writableFinished ? done() : sink.once('finish', () => done())));
    res.end();
  } catch (error) {
    if (res.destroyed) return;
    console.error('[gateway] streaming function failed:', error);
    if (!res.headersSent) sendEnvelope(res, functionCrashed());
    else res.end();
  }
};
