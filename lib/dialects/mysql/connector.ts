// A customer's MySQL or MariaDB server through `mysql2` (docs/design.md "Tenant filtering and the SQL
// guard", Execution). One small pool per connector (2 connections, as for PostgreSQL), no
// multi-statement connections, values as lib/connectors/rows.ts describes them.
//
// The flavour is read once per connector (`SELECT VERSION()` contains "MariaDB"), because the
// statement timeout differs: MySQL `max_execution_time` (milliseconds, SELECT only) and MariaDB
// `max_statement_time` (seconds, fractional). A client-side timer slightly longer catches a
// server that stops answering; that connection is destroyed.
//
// Each guarded query: SET SESSION sql_mode + timeout → START TRANSACTION READ ONLY → the query,
// as a server-side prepared statement with bound parameters → ROLLBACK.
//
// sql_mode is pinned to SQL_MODE below so the server reads the guard's printed SQL the way the
// guard's parser (node-sql-parser, MySQL mode) read it: none of the modes that change how text
// is tokenised — no ANSI_QUOTES (a double-quoted token stays a string, identifiers are
// backticked), no PIPES_AS_CONCAT (`||` stays OR), no NO_BACKSLASH_ESCAPES (backslash escapes in
// literals keep their default meaning), no IGNORE_SPACE or HIGH_NOT_PRECEDENCE — plus the strict
// modes MySQL 8 sets by default, so a query behaves the same on every server whatever its
// configured default.
import mysql from 'mysql2/promise';
import { type Redact, redactorFor } from '#lib/connectors/errors.ts';
import {
  collectSamples,
  describedAs,
  emptyRelation,
  MAX_SAMPLE_VALUES,
  SAMPLE_SCAN_ROWS,
  SAMPLE_TIMEOUT_MS,
  type SampleRequest,
} from '#lib/connectors/introspect.ts';
import { rowObjects } from '#lib/connectors/rows.ts';
import { targetSockets } from '#lib/connectors/target.ts';
import { transportOf } from '#lib/connectors/tls.ts';
import type { Connector, ExecuteLimits, IntrospectOptions, QueryResult } from '#lib/connectors/types.ts';
import type { Catalog, CatalogRelation, RelationKind } from '#lib/core/catalog.ts';
import { logger } from '#lib/log.ts';
import { connectionFailed, queryFailed } from './errors.ts';
import { mysqlColumnKind } from './introspect.ts';
import { MYSQL_SYSTEM } from './policy.ts';

// No ONLY_FULL_GROUP_BY: with mysql2's cached prepared statements, MariaDB 10.11 refuses the
// second execution of an aggregate over a derived table ("Mixing of GROUP columns"), and every
// guarded aggregate has that shape. It plays no part in how the server reads the SQL.
export const SQL_MODE = 'STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';

export interface MysqlOptions {
  url: string;
  connectTimeoutMs?: number;
  poolSize?: number;
}

export type MysqlFlavour = 'mysql' | 'mariadb';

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_POOL_SIZE = 2;
const IDLE_TIMEOUT_MS = 60_000;
const INTERNAL_TIMEOUT_MS = 30_000;
const CLIENT_GRACE_MS = 2_000;

/**
 * `ssl-mode` / `sslmode` of the URL for `host` → mysql2's `ssl` option (lib/connectors/tls.ts:
 * verified by default off loopback). mysql2 checks the host name only with `verifyIdentity`.
 * Exported for tests.
 */
export const mysqlSsl = (mode: string | null, host: string): mysql.SslOptions | undefined => {
  switch (transportOf(mode, host)) {
    case 'plain':
      return undefined;
    case 'no-verify':
      return { rejectUnauthorized: false };
    case 'verify-ca':
      return { rejectUnauthorized: true, verifyIdentity: false };
    case 'verify-full':
      return { rejectUnauthorized: true, verifyIdentity: true };
  }
};

/** The URL as mysql2 pool options; the caller has checked its scheme. Exported for tests. */
export const mysqlConfig = (url: string, connectTimeoutMs: number, poolSize: number): mysql.PoolOptions => {
  const parsed = new URL(url);
  const decode = (value: string) => decodeURIComponent(value);
  const host = parsed.hostname.replace(/^\[|\]$/g, '') || 'localhost';
  const ssl = mysqlSsl(parsed.searchParams.get('ssl-mode') ?? parsed.searchParams.get('sslmode'), host);
  return {
    host,
    port: parsed.port ? Number(parsed.port) : 3306,
    ...(parsed.username ? { user: decode(parsed.username) } : {}),
    ...(parsed.password ? { password: decode(parsed.password) } : {}),
    ...(parsed.pathname.length > 1 ? { database: decode(parsed.pathname.slice(1)) } : {}),
    ...(ssl ? { ssl } : {}),
    connectTimeout: connectTimeoutMs,
    connectionLimit: poolSize,
    maxIdle: poolSize,
    idleTimeout: IDLE_TIMEOUT_MS,
    enableKeepAlive: true,
    multipleStatements: false,
    charset: 'utf8mb4',
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    decimalNumbers: false,
    maxPreparedStatements: 64,
  };
};

export const quoteMysql = (identifier: string): string => `\`${identifier.replaceAll('`', '``')}\``;

const relationKinds: Record<string, RelationKind> = {
  'BASE TABLE': 'table',
  'SYSTEM VERSIONED': 'table',
  VIEW: 'view',
  SEQUENCE: 'sequence',
};

// A view's TABLE_COMMENT is the word 'VIEW', not a comment (views have none on MySQL).
const tablesSql = `SELECT TABLE_NAME AS name, TABLE_TYPE AS type, TABLE_ROWS AS estimate, TABLE_COMMENT AS description
FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME`;
const columnsSql = `SELECT TABLE_NAME AS tbl, COLUMN_NAME AS name, DATA_TYPE AS data_type,
  COLUMN_TYPE AS column_type, IS_NULLABLE AS nullable, COLUMN_COMMENT AS description
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`;
const keysSql = `SELECT TABLE_NAME AS tbl, CONSTRAINT_NAME AS constraint_name, COLUMN_NAME AS name,
  REFERENCED_TABLE_SCHEMA AS ref_schema, REFERENCED_TABLE_NAME AS ref_name, REFERENCED_COLUMN_NAME AS ref_column
FROM information_schema.KEY_COLUMN_USAGE
WHERE TABLE_SCHEMA = DATABASE() AND (CONSTRAINT_NAME = 'PRIMARY' OR REFERENCED_TABLE_NAME IS NOT NULL)
ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`;
const routinesSql = `SELECT DISTINCT ROUTINE_NAME AS name FROM information_schema.ROUTINES
WHERE ROUTINE_SCHEMA = DATABASE() ORDER BY ROUTINE_NAME`;

const sampleSql = ({ relation, column, tenantColumn, scopeColumn }: SampleRequest): string => {
  const table = `${quoteMysql(relation.schema)}.${quoteMysql(relation.name)}`;
  const tenant = tenantColumn ? quoteMysql(tenantColumn) : 'NULL';
  const scope = scopeColumn ? quoteMysql(scopeColumn) : 'NULL';
  return `SELECT s.v AS v, COUNT(DISTINCT s.t) AS tenants, COUNT(DISTINCT s.sc) AS scopes
FROM (SELECT CAST(${quoteMysql(column)} AS CHAR) AS v, ${tenant} AS t, ${scope} AS sc FROM ${table} LIMIT ${SAMPLE_SCAN_ROWS}) AS s
WHERE s.v IS NOT NULL GROUP BY s.v ORDER BY s.v LIMIT ${MAX_SAMPLE_VALUES + 1}`;
};

export class MysqlConnector implements Connector {
  readonly dialect = 'mysql' as const;
  readonly #pool: mysql.Pool;
  readonly #redact: Redact;
  readonly #where: string;
  #flavour: Promise<MysqlFlavour> | undefined;

  constructor(options: MysqlOptions) {
    this.#redact = redactorFor(options.url);
    const config = mysqlConfig(
      options.url,
      options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      options.poolSize ?? DEFAULT_POOL_SIZE,
    );
    this.#where = `${config.host}:${config.port}`;
    // Every connection goes to the address checked once for this connector (lib/connectors/target.ts).
    const targets = targetSockets(String(config.host));
    const port = Number(config.port);
    this.#pool = mysql.createPool({ ...config, stream: () => targets.connected(port, String(config.host)) });
    // Errors of idle connections; without a listener they could crash the process.
    this.#pool.pool.on('error', (error: Error) => {
      logger.warn('idle database connection failed', {
        error: connectionFailed(error, this.#redact, this.#where).message,
      });
    });
  }

  async #connect(): Promise<mysql.PoolConnection> {
    try {
      return await this.#pool.getConnection();
    } catch (error) {
      throw connectionFailed(error, this.#redact, this.#where);
    }
  }

  /** MySQL or MariaDB, asked once per connector. */
  flavour(connection?: mysql.PoolConnection): Promise<MysqlFlavour> {
    this.#flavour ??= (async () => {
      const own = connection ? undefined : await this.#connect();
      try {
        const [rows] = await (connection ?? (own as mysql.PoolConnection)).query<mysql.RowDataPacket[]>(
          'SELECT VERSION() AS version',
        );
        return /mariadb/i.test(String(rows[0]?.version)) ? 'mariadb' : 'mysql';
      } finally {
        own?.release();
      }
    })();
    this.#flavour.catch(() => {
      this.#flavour = undefined;
    });
    return this.#flavour;
  }

  /**
   * One read-only transaction on one pooled connection, with the session pinned; `sql` names the
   * statement in errors.
   */
  async #transaction<T>(
    timeoutMs: number,
    sql: string | undefined,
    work: (connection: mysql.PoolConnection, clientTimeoutMs: number) => Promise<T>,
  ): Promise<T> {
    const connection = await this.#connect();
    const statementMs = Math.max(1, Math.round(timeoutMs));
    let broken = false;
    try {
      const flavour = await this.flavour(connection);
      const timeout =
        flavour === 'mariadb'
          ? `max_statement_time = ${(statementMs / 1000).toFixed(3)}`
          : `max_execution_time = ${statementMs}`;
      await connection.query(`SET SESSION sql_mode = '${SQL_MODE}', SESSION ${timeout}`);
      await connection.query('START TRANSACTION READ ONLY');
      return await work(connection, statementMs + CLIENT_GRACE_MS);
    } catch (error) {
      const failure = queryFailed(error, this.#redact, sql);
      const code = (error as { code?: unknown })?.code;
      if (failure.kind === 'DB_CONNECTION_FAILED' || code === 'PROTOCOL_SEQUENCE_TIMEOUT') broken = true;
      throw failure;
    } finally {
      if (!broken) {
        try {
          await connection.query('ROLLBACK');
        } catch {
          broken = true;
        }
      }
      if (broken) connection.destroy();
      else connection.release();
    }
  }

  async test(): Promise<void> {
    const connection = await this.#connect();
    try {
      await connection.query('SELECT 1');
      await this.flavour(connection);
      connection.release();
    } catch (error) {
      connection.destroy();
      throw connectionFailed(error, this.#redact, this.#where);
    }
  }

  async #internal(sql: string, timeoutMs = INTERNAL_TIMEOUT_MS): Promise<Record<string, unknown>[]> {
    return this.#transaction(timeoutMs, undefined, async (connection, timeout) => {
      const [rows] = await connection.query<mysql.RowDataPacket[]>({ sql, timeout });
      return rows as Record<string, unknown>[];
    });
  }

  async introspect(options: IntrospectOptions = {}): Promise<Catalog> {
    const [schemaRows, tableRows, columnRows, keyRows, routineRows] = [
      await this.#internal('SELECT DATABASE() AS db'),
      await this.#internal(tablesSql),
      await this.#internal(columnsSql),
      await this.#internal(keysSql),
      await this.#internal(routinesSql),
    ];
    const schema = typeof schemaRows[0]?.db === 'string' ? schemaRows[0].db : '';
    const byName = new Map<string, CatalogRelation>();
    for (const row of tableRows) {
      const kind = relationKinds[String(row.type)];
      if (!kind) continue; // TEMPORARY and other kinds
      const relation = emptyRelation(
        schema,
        String(row.name),
        kind,
        kind === 'table' ? Number(row.estimate) : 0,
        kind === 'view' ? undefined : row.description,
      );
      byName.set(relation.name, relation);
    }
    for (const row of columnRows) {
      const description = describedAs(row.description);
      byName.get(String(row.tbl))?.columns.push({
        name: String(row.name),
        kind: mysqlColumnKind(String(row.data_type), String(row.column_type)),
        nativeType: String(row.column_type),
        nullable: row.nullable === 'YES',
        ...(description ? { description } : {}),
      });
    }
    const foreignKeys = new Map<
      string,
      { relation: CatalogRelation; key: CatalogRelation['foreignKeys'][0] }
    >();
    for (const row of keyRows) {
      const relation = byName.get(String(row.tbl));
      if (!relation) continue;
      if (row.constraint_name === 'PRIMARY') {
        relation.primaryKey.push(String(row.name));
        continue;
      }
      const id = `${relation.name}\u0000${String(row.constraint_name)}`;
      let entry = foreignKeys.get(id);
      if (!entry) {
        entry = {
          relation,
          key: {
            columns: [],
            references: { schema: String(row.ref_schema), name: String(row.ref_name), columns: [] },
          },
        };
        foreignKeys.set(id, entry);
        relation.foreignKeys.push(entry.key);
      }
      entry.key.columns.push(String(row.name));
      entry.key.references.columns.push(String(row.ref_column));
    }
    const catalog: Catalog = {
      dialect: 'mysql',
      defaultSchema: schema,
      relations: [...byName.values()],
      userFunctions: routineRows.map((row) => String(row.name)),
      indexedAt: new Date().toISOString(),
    };
    await collectSamples(
      catalog,
      options,
      async (request) =>
        (await this.#internal(sampleSql(request), SAMPLE_TIMEOUT_MS)).map((row) => ({
          v: row.v,
          tenants: row.tenants,
          scopes: row.scopes,
        })),
      MYSQL_SYSTEM,
    );
    return catalog;
  }

  async execute(sql: string, params: readonly unknown[], limits: ExecuteLimits): Promise<QueryResult> {
    const started = performance.now();
    return this.#transaction(limits.timeoutMs, sql, async (connection, timeout) => {
      const [rows, fields] = await connection.execute<mysql.RowDataPacket[][]>(
        { sql, rowsAsArray: true, timeout },
        [...params] as mysql.ExecuteValues,
      );
      return {
        ...rowObjects(
          (fields ?? []).map((field) => field.name),
          rows as unknown as unknown[][],
        ),
        executionMs: Math.round(performance.now() - started),
      };
    });
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
