// A customer's PostgreSQL server through `pg` (docs/design.md "Tenant filtering and the SQL guard",
// Execution). One small pool per connector, and one connector per database per warm container
// (lib/connectors/index.ts): a Lambda container serves one request at a time, so two
// connections cover a request plus an overlapping introspection, and a fleet of containers
// cannot exhaust the customer's max_connections.
//
// Each guarded query: BEGIN READ ONLY; SET LOCAL statement_timeout; SET LOCAL search_path =
// pg_catalog; SET LOCAL work_mem (one round trip) → the generic plan's cost against the ceiling
// (generic-cost.ts) → the query with bound parameters → ROLLBACK. A client-side timer slightly
// longer than statement_timeout catches a server that stops answering; that connection is
// destroyed, not reused.
//
// TLS (lib/connectors/tls.ts): verified (chain and host name) by default for every host that is
// not loopback; plain only on loopback or with sslmode=disable. CA bundles come from Node's store
// or NODE_EXTRA_CA_CERTS (deployed stages add the AWS runtime's bundle, RDS included).
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import pg from 'pg';
import { type Redact, redactorFor, tooExpensive } from '#lib/connectors/errors.ts';
import { parseBigInteger, rowObjects } from '#lib/connectors/rows.ts';
import { targetSockets } from '#lib/connectors/target.ts';
import { transportOf } from '#lib/connectors/tls.ts';
import type { Connector, ExecuteLimits, IntrospectOptions, QueryResult } from '#lib/connectors/types.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { logger } from '#lib/log.ts';
import { connectionFailed, queryFailed } from './errors.ts';
import { GUARDED_WORK_MEM, genericCost } from './generic-cost.ts';
import { costStatement } from './generic-plan.ts';
import { introspectPostgres } from './introspect.ts';

export interface PostgresOptions {
  url: string;
  connectTimeoutMs?: number;
  /** Connections per pool (per container). */
  poolSize?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_POOL_SIZE = 2;
const IDLE_TIMEOUT_MS = 60_000;
const INTERNAL_TIMEOUT_MS = 30_000;
/** The client-side backstop fires this long after the server's statement_timeout. */
const CLIENT_GRACE_MS = 2_000;

/** A URL's `sslmode` for `host` → the `ssl` option of pg. Exported for tests. */
export const sslOptions = (mode: string | null, host: string): false | ConnectionOptions => {
  // SNI and the name checked: the host name (never an IP address, RFC 6066; Node checks an IP
  // address against the certificate's IP entries).
  const servername = isIP(host) === 0 ? { servername: host } : {};
  switch (transportOf(mode, host)) {
    case 'plain':
      return false;
    case 'no-verify':
      return { rejectUnauthorized: false };
    case 'verify-ca':
      return { rejectUnauthorized: true, checkServerIdentity: () => undefined, ...servername };
    case 'verify-full':
      return { rejectUnauthorized: true, ...servername };
  }
};

/** The URL as pg options; the caller has checked its scheme. Exported for tests. */
export const postgresConfig = (url: string, connectTimeoutMs: number, poolSize: number): pg.PoolConfig => {
  const parsed = new URL(url);
  const decode = (value: string) => decodeURIComponent(value);
  const host = parsed.hostname.replace(/^\[|\]$/g, '') || 'localhost';
  return {
    host,
    port: parsed.port ? Number(parsed.port) : 5432,
    ...(parsed.username ? { user: decode(parsed.username) } : {}),
    ...(parsed.password ? { password: decode(parsed.password) } : {}),
    ...(parsed.pathname.length > 1 ? { database: decode(parsed.pathname.slice(1)) } : {}),
    ssl: sslOptions(parsed.searchParams.get('sslmode'), host),
    connectionTimeoutMillis: connectTimeoutMs,
    max: poolSize,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    allowExitOnIdle: true,
    application_name: 'tabletalk',
  };
};

// Values as lib/connectors/rows.ts describes them.
const rawText = (text: string) => text;
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.INT8) return parseBigInteger;
    if (oid === pg.types.builtins.DATE || oid === pg.types.builtins.TIMESTAMP) return rawText;
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

// pg honours a per-query `query_timeout` (client-side) although its types list it only on the client.
type Timed<C> = C & { query_timeout: number };
const timed = <C extends object>(config: C, query_timeout: number): Timed<C> => ({
  ...config,
  query_timeout,
});

export class PostgresConnector implements Connector {
  readonly dialect = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #redact: Redact;
  readonly #where: string;

  constructor(options: PostgresOptions) {
    this.#redact = redactorFor(options.url);
    const config = postgresConfig(
      options.url,
      options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      options.poolSize ?? DEFAULT_POOL_SIZE,
    );
    this.#where = `${config.host}:${config.port}`;
    // Every connection goes to the address checked once for this connector (lib/connectors/target.ts).
    const targets = targetSockets(String(config.host));
    this.#pool = new pg.Pool({ ...config, stream: () => targets.socket() });
    // An idle connection the server drops emits here; without a listener it would crash the process.
    this.#pool.on('error', (error) => {
      logger.warn('idle database connection failed', {
        error: connectionFailed(error, this.#redact, this.#where).message,
      });
    });
  }

  async #connect(): Promise<pg.PoolClient> {
    try {
      return await this.#pool.connect();
    } catch (error) {
      throw connectionFailed(error, this.#redact, this.#where);
    }
  }

  /** One read-only transaction on one pooled connection; `sql` names the statement in errors. */
  async #transaction<T>(
    timeoutMs: number,
    pin: boolean,
    sql: string | undefined,
    work: (client: pg.PoolClient, clientTimeoutMs: number) => Promise<T>,
  ): Promise<T> {
    const client = await this.#connect();
    const statementTimeout = Math.max(1, Math.round(timeoutMs));
    let broken: Error | undefined;
    try {
      // Bounded on the client too: a server that stops answering must not hold the request.
      await client.query(
        timed(
          {
            text: `BEGIN READ ONLY; SET LOCAL statement_timeout = ${statementTimeout}${pin ? `; SET LOCAL search_path = pg_catalog; SET LOCAL work_mem = '${GUARDED_WORK_MEM}'` : ''}`,
          },
          statementTimeout + CLIENT_GRACE_MS,
        ),
      );
      return await work(client, statementTimeout + CLIENT_GRACE_MS);
    } catch (error) {
      const failure = queryFailed(error, this.#redact, sql);
      if (
        failure.kind === 'DB_CONNECTION_FAILED' ||
        /read timeout/i.test(String((error as Error)?.message))
      ) {
        broken = failure;
      }
      throw failure;
    } finally {
      if (!broken) {
        try {
          await client.query('ROLLBACK');
        } catch (error) {
          broken = error as Error;
        }
      }
      client.release(broken ?? undefined);
    }
  }

  async test(): Promise<void> {
    const client = await this.#connect();
    try {
      await client.query('SELECT 1');
      client.release();
    } catch (error) {
      client.release(error as Error);
      throw connectionFailed(error, this.#redact, this.#where);
    }
  }

  async introspect(options: IntrospectOptions = {}): Promise<Catalog> {
    return introspectPostgres(
      (sql, params = [], timeoutMs = INTERNAL_TIMEOUT_MS) =>
        this.#transaction(timeoutMs, false, undefined, async (client, query_timeout) => {
          const result = await client.query<Record<string, unknown>>(
            timed({ text: sql, values: [...params], types: typeParsers }, query_timeout),
          );
          return result.rows;
        }),
      options,
    );
  }

  async execute(sql: string, params: readonly unknown[], limits: ExecuteLimits): Promise<QueryResult> {
    const started = performance.now();
    return this.#transaction(limits.timeoutMs, true, sql, async (client, query_timeout) => {
      if (limits.maxCost !== undefined) {
        const statement = await costStatement(sql, params.length);
        const cost = await genericCost(statement, {
          exec: (text) => client.query(timed({ text }, query_timeout)),
          plan: async (text) =>
            (await client.query<Record<string, unknown>>(timed({ text }, query_timeout))).rows[0]?.[
              'QUERY PLAN'
            ],
        });
        if (cost > limits.maxCost) throw tooExpensive(cost, limits.maxCost);
      }
      const result = await client.query<unknown[]>(
        timed(
          { text: sql, values: [...params], rowMode: 'array' as const, types: typeParsers },
          query_timeout,
        ),
      );
      return {
        ...rowObjects(
          result.fields.map((field) => field.name),
          result.rows,
        ),
        executionMs: Math.round(performance.now() - started),
      };
    });
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
