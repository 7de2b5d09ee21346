// Loopback fault proxies for the fault-injection suite: put one between the service and a real
// dependency and switch what the dependency seems to do, at run time, without restarting either.
//   - TCP (any protocol, e.g. PostgreSQL): pass, refuse (the connection is reset at once), hang
//     (accepted, never answered), delay (every chunk from the server held back for delayMs).
//   - HTTP (DynamoDB Local): the same, plus throttle (DynamoDB's 400
//     ProvisionedThroughputExceededException) and a filter on the DynamoDB operation
//     (X-Amz-Target), and a count of the requests seen per operation.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, createConnection, createServer, type Server, type Socket } from 'node:net';

export type FaultMode = 'pass' | 'refuse' | 'hang' | 'delay' | 'throttle';

export interface FaultOptions {
  delayMs?: number;
  only?: (operation: string) => boolean;
  times?: number;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Switches the behaviour for new connections / requests; `delayMs` for `delay`. */
  /**
   * Switches the behaviour for new connections / requests: `delayMs` for `delay`; `only` limits
   * the fault to some operations (HTTP); after `times` faulted requests it goes back to `pass` (HTTP).
   */
  set(mode: FaultMode, options?: FaultOptions): void;
  readonly mode: FaultMode;
  /** Requests seen (HTTP) or connections accepted (TCP), per operation (HTTP) or `connect` (TCP). */
  readonly seen: Map<string, number>;
  /** Requests / connections the fault was applied to. */
  readonly faulted: number;
  resetCounts(): void;
  close(): Promise<void>;
}

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((done, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => done());
  });
  return (server.address() as AddressInfo).port;
};

const closeServer = (server: Server, sockets: Set<Socket>): Promise<void> =>
  new Promise((done) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => done());
  });

const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * A TCP proxy to `target` (host:port). The mode applies to new connections and, for open ones,
 * to every chunk the server sends: `delay` holds each back for delayMs, `hang` keeps them
 * (delivered once the mode is `pass` again), `refuse` resets the connection.
 */
export const startTcpFaultProxy = async (target: { host: string; port: number }): Promise<FaultProxy> => {
  let mode: FaultMode = 'pass';
  let delayMs = 0;
  let faulted = 0;
  const seen = new Map<string, number>();
  const sockets = new Set<Socket>();
  const held = new Set<() => void>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    seen.set('connect', (seen.get('connect') ?? 0) + 1);
    if (mode !== 'pass') faulted += 1;
    if (mode === 'refuse' || mode === 'throttle') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'hang') return;
    const upstream = createConnection(target);
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      const deliver = () => {
        if (!client.destroyed) client.write(chunk);
        upstream.resume();
      };
      if (mode === 'pass') return void client.write(chunk);
      faulted += 1;
      if (mode === 'refuse' || mode === 'throttle') {
        client.resetAndDestroy();
        return;
      }
      upstream.pause();
      if (mode === 'delay') {
        void wait(delayMs).then(deliver);
        return;
      }
      held.add(deliver);
    });
  });
  const port = await listen(server);
  return {
    url: `tcp://127.0.0.1:${port}`,
    port,
    set: (next, options = {}) => {
      mode = next;
      delayMs = options.delayMs ?? 0;
      if (next !== 'hang') {
        for (const deliver of held) deliver();
        held.clear();
      }
    },
    get mode() {
      return mode;
    },
    seen,
    get faulted() {
      return faulted;
    },
    resetCounts: () => {
      seen.clear();
      faulted = 0;
    },
    close: () => closeServer(server, sockets),
  };
};

/** DynamoDB's answer to a throttled request, as the service returns it (HTTP 400, JSON 1.0). */
export const THROTTLING_BODY = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message: 'The level of configured provisioned throughput for the table was exceeded.',
});

/** An HTTP proxy to `target` (http://host:port), aware of DynamoDB's X-Amz-Target operations. */
export const startHttpFaultProxy = async (target: string): Promise<FaultProxy> => {
  const upstream = new URL(target);
  let mode: FaultMode = 'pass';
  let delayMs = 0;
  let only: ((operation: string) => boolean) | undefined;
  let budget = Number.POSITIVE_INFINITY;
  let faulted = 0;
  const seen = new Map<string, number>();
  const sockets = new Set<Socket>();

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.socket?.resetAndDestroy());
    out.end(body);
  };

  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target'] ?? req.url ?? '').replace(/^DynamoDB_\d+\./, '');
      seen.set(operation, (seen.get(operation) ?? 0) + 1);
      const body = Buffer.concat(chunks);
      const current = (only && !only(operation)) || budget <= 0 ? 'pass' : mode;
      if (current !== 'pass') {
        faulted += 1;
        budget -= 1;
      }
      switch (current) {
        case 'refuse':
          res.socket?.resetAndDestroy();
          return;
        case 'hang':
          return;
        case 'throttle':
          res.writeHead(400, {
            'Content-Type': 'application/x-amz-json-1.0',
            'x-amzn-RequestId': `throttled-${faulted}`,
          });
          res.end(THROTTLING_BODY);
          return;
        case 'delay':
          void wait(delayMs).then(() => forward(req, res, body));
          return;
        default:
          forward(req, res, body);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    set: (next, options = {}) => {
      mode = next;
      delayMs = options.delayMs ?? 0;
      only = options.only;
      budget = options.times ?? Number.POSITIVE_INFINITY;
    },
    get mode() {
      return mode;
    },
    seen,
    get faulted() {
      return faulted;
    },
    resetCounts: () => {
      seen.clear();
      faulted = 0;
    },
    close: () => closeServer(server, sockets),
  };
};
