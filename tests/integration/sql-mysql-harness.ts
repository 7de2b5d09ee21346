// Test-only MariaDB/MySQL plumbing for the MySQL guard's integration suites: throwaway databases
// loaded with the sample shop, tenant-filtered copies for the leak oracle, and a small executor
// that runs SQL the way production does (lib/dialects/mysql/connector.ts): a connection without
// multi-statements, the pinned sql_mode, a statement timeout, a read-only transaction, a
// server-side prepared statement for the bound values.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { sampleSchemaSql, sampleSeedSql } from '../unit/sql-mysql-corpus.ts';

export const MYSQL_URL = process.env.TABLETALK_TEST_MYSQL_URL;

/**
 * The session's sql_mode: none of the modes that change how text is read (ANSI_QUOTES,
 * PIPES_AS_CONCAT, NO_BACKSLASH_ESCAPES, IGNORE_SPACE), so the server reads the printed SQL as
 * node-sql-parser did. No ONLY_FULL_GROUP_BY either: MariaDB 10.11 fails the second execution
 * of a prepared `SELECT MAX(x) FROM (SELECT ... ) AS d` under it ("Mixing of GROUP columns"),
 * which is the shape of every guarded aggregate (see the re-execution test).
 */
export const SQL_MODE = 'STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';

const connectionOptions = (url: string, database?: string): mysql.ConnectionOptions => {
  const parsed = new URL(url);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username || 'root'),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(database ? { database } : {}),
    charset: 'utf8mb4',
    dateStrings: true,
    supportBigNumbers: true,
    multipleStatements: false,
  };
};

export const uniqueName = (prefix: string): string => `${prefix}_${randomBytes(4).toString('hex')}`;

/** Setup connection: loads files of several statements, so it alone allows them. */
export const openAdmin = (url: string): Promise<mysql.Connection> =>
  mysql.createConnection({ ...connectionOptions(url), multipleStatements: true });

const quote = (identifier: string): string => `\`${identifier.replaceAll('`', '``')}\``;

export const createSampleDatabase = async (
  admin: mysql.Connection,
  name: string,
  seed = true,
): Promise<void> => {
  await admin.query(`CREATE DATABASE ${quote(name)} CHARACTER SET utf8mb4`);
  await admin.query(`USE ${quote(name)}; ${sampleSchemaSql()}`);
  if (seed) await admin.query(`USE ${quote(name)}; ${sampleSeedSql()}`);
};

export const dropDatabase = (admin: mysql.Connection, name: string): Promise<unknown> =>
  admin.query(`DROP DATABASE IF EXISTS ${quote(name)}`);

export interface TenantContext {
  tenant: number;
  scope?: string;
}

/**
 * How the sample policy (tests/corpus/mysql-policy.json) filters each base table, written out
 * by hand so the oracle does not lean on the code under test. Views are recreated over the
 * filtered tables; `order_summary` groups by both columns, so that equals filtering it.
 */
const FILTERS: Record<string, { tenant?: string; scope?: string }> = {
  organizations: { tenant: 'id' },
  countries: {},
  customers: { tenant: 'org_id', scope: 'scope_id' },
  products: { tenant: 'org_id' },
  orders: { tenant: 'org_id', scope: 'scope_id' },
  order_items: { tenant: 'org_id' },
  invoices: { tenant: 'organization_id' },
  tickets: { tenant: 'org_id', scope: 'scope_id' },
};

/** A copy of `source` holding only the context's rows: what a tenant may see. */
export const createFilteredCopy = async (
  admin: mysql.Connection,
  source: string,
  target: string,
  context: TenantContext,
): Promise<void> => {
  await createSampleDatabase(admin, target, false);
  for (const [table, filter] of Object.entries(FILTERS)) {
    const terms: string[] = [];
    const values: unknown[] = [];
    if (filter.tenant) {
      terms.push(`${quote(filter.tenant)} = ?`);
      values.push(context.tenant);
    }
    if (filter.scope && context.scope !== undefined) {
      terms.push(`CAST(${quote(filter.scope)} AS BINARY) = CAST(? AS BINARY)`);
      values.push(context.scope);
    }
    const where = terms.length > 0 ? `WHERE ${terms.join(' AND ')}` : '';
    await admin.query(
      `INSERT INTO ${quote(target)}.${quote(table)} SELECT * FROM ${quote(source)}.${quote(table)} ${where}`,
      values,
    );
  }
};

export type Flavour = 'mariadb' | 'mysql';

export class QueryTimeout extends Error {}

/** One connection, pinned like production's, running each query in a read-only transaction. */
export class ReadOnlyExecutor {
  readonly #connection: mysql.Connection;
  readonly flavour: Flavour;

  private constructor(connection: mysql.Connection, flavour: Flavour) {
    this.#connection = connection;
    this.flavour = flavour;
  }

  static async open(
    url: string,
    database: string,
    timeoutMs: number,
    sqlMode = SQL_MODE,
  ): Promise<ReadOnlyExecutor> {
    const connection = await mysql.createConnection(connectionOptions(url, database));
    const [rows] = await connection.query<mysql.RowDataPacket[]>('SELECT VERSION() AS version');
    const flavour: Flavour = /mariadb/i.test(String(rows[0]?.version)) ? 'mariadb' : 'mysql';
    const timeout =
      flavour === 'mariadb'
        ? `max_statement_time = ${(timeoutMs / 1000).toFixed(3)}`
        : `max_execution_time = ${timeoutMs}`;
    await connection.query(`SET SESSION sql_mode = '${sqlMode}', SESSION ${timeout}`);
    return new ReadOnlyExecutor(connection, flavour);
  }

  /** Rows as arrays (column names depend on how an expression was written). */
  async run(sql: string, params: readonly unknown[] = []): Promise<unknown[][]> {
    await this.#connection.query('START TRANSACTION READ ONLY');
    try {
      const [rows] = await this.#connection.execute({ sql, rowsAsArray: true }, [
        ...params,
      ] as mysql.ExecuteValues);
      return rows as unknown as unknown[][];
    } catch (error) {
      // MariaDB 1969 (max_statement_time), MySQL 3024 (max_execution_time).
      const errno = (error as { errno?: number }).errno;
      if (errno === 1969 || errno === 3024) throw new QueryTimeout(String((error as Error).message));
      throw error;
    } finally {
      await this.#connection.query('ROLLBACK');
    }
  }

  close(): Promise<void> {
    return this.#connection.end();
  }
}

/** Rows as a sorted multiset, for comparing results whose order SQL leaves open. */
export const rowMultiset = (rows: readonly unknown[][]): string[] =>
  rows.map((row) => JSON.stringify(row)).sort();

/** The outcome of running a query: its rows, or the error it raised (for comparing failures). */
export const outcome = async (
  run: () => Promise<unknown[][]>,
): Promise<{ rows: string[] } | { error: string; timeout: boolean }> => {
  try {
    return { rows: rowMultiset(await run()) };
  } catch (error) {
    return { error: (error as Error).message, timeout: error instanceof QueryTimeout };
  }
};
