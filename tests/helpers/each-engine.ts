// One suite run on every engine a test database can be: PGlite always, the PostgreSQL and
// MySQL/MariaDB servers when their URLs are set (TABLETALK_TEST_POSTGRES_URL,
// TABLETALK_TEST_MYSQL_URL). Each gets `ddl` in a fresh schema or database of its own, dropped
// afterwards; the suite reads the schema's name and a runner of SQL with parameters.
import { PGlite } from '@electric-sql/pglite';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { uniqueName } from '../integration/sql-mysql-harness.ts';

export type Runner = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

export type EngineSuite = (dialect: 'postgres' | 'mysql', schema: () => string, run: () => Runner) => void;

/** `title` on PGlite, PostgreSQL and MySQL ("… on PGlite"), each over `ddl` in its own place. */
export const onEachEngine = (title: string, ddl: string, suite: EngineSuite): void => {
  const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
  const mysqlUrl = process.env.TABLETALK_TEST_MYSQL_URL;

  describe(`${title}, on PGlite`, () => {
    let db: PGlite;
    beforeAll(async () => {
      db = new PGlite();
      await db.exec(ddl);
    });
    afterAll(async () => {
      await db.close();
    });
    suite(
      'postgres',
      () => 'public',
      () => async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows,
    );
  });

  describe.runIf(postgresUrl)(`${title}, on PostgreSQL`, () => {
    const schema = uniqueName('each_engine');
    let client: pg.Client;
    beforeAll(async () => {
      client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}; ${ddl}`);
    });
    afterAll(async () => {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    });
    suite(
      'postgres',
      () => schema,
      () => async (sql, params) => (await client.query(sql, params)).rows,
    );
  });

  describe.runIf(mysqlUrl)(`${title}, on MySQL`, () => {
    const database = uniqueName('each_engine');
    let connection: mysql.Connection;
    beforeAll(async () => {
      const url = new URL(mysqlUrl!);
      const options = {
        host: url.hostname,
        port: Number(url.port || 3306),
        user: decodeURIComponent(url.username || 'root'),
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      };
      const admin = await mysql.createConnection({ ...options, multipleStatements: true });
      await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4; USE \`${database}\`; ${ddl}`);
      await admin.end();
      connection = await mysql.createConnection({ ...options, database, charset: 'utf8mb4' });
    });
    afterAll(async () => {
      await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await connection.end();
    });
    suite(
      'mysql',
      () => database,
      () => async (sql, params) => {
        const [rows] = await connection.execute(sql, params as mysql.ExecuteValues);
        return rows as Record<string, unknown>[];
      },
    );
  });
};
