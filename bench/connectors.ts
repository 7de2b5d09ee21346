// Connector overhead (lib/connectors): what the read-only transaction, the pinned session, the
// EXPLAIN cost check and (for PGlite) the worker hop add to a small query, against the same
// query sent bare through the driver. PGlite with the demo shop always; PostgreSQL and MySQL when
// TABLETALK_TEST_POSTGRES_URL / TABLETALK_TEST_MYSQL_URL are set. Also PGlite's start-up with the
// demo seed (target: about 2 s). Run alone with `node bench/connectors.ts`, or call
// measureConnectors() from bench/run.ts.
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { createConnector } from '#lib/connectors/index.ts';
import type { Connector } from '#lib/connectors/types.ts';
import { type Figure, fixed, median, percentile, printFigure, root, type Section, table } from './common.ts';

const WARMUP = 20;
const ROUNDS = 200;
const STARTUP_TARGET_MS = 2_000;
const seedFile = join(root, 'local/demo/shop.sql');

const time = async (work: () => Promise<unknown>): Promise<number[]> => {
  for (let i = 0; i < WARMUP; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return samples;
};

const ms = (samples: number[]) =>
  `${fixed(median(samples), 2)} ms median, ${fixed(percentile(samples, 95), 2)} ms p95`;

interface Row {
  engine: string;
  bare: number[];
  connector: number[];
  withCost?: number[];
}

const measureEngine = async (
  engine: string,
  connector: Connector,
  sql: string,
  params: unknown[],
  bare: () => Promise<unknown>,
  costCheck: boolean,
): Promise<Row> => {
  const row: Row = {
    engine,
    bare: await time(bare),
    connector: await time(() => connector.execute(sql, params, { timeoutMs: 30_000 })),
  };
  if (costCheck)
    row.withCost = await time(() => connector.execute(sql, params, { timeoutMs: 30_000, maxCost: 1e7 }));
  return row;
};

export const measureConnectors = async (): Promise<Section> => {
  const figures: Figure[] = [];
  const rows: Row[] = [];

  const started = performance.now();
  const pglite = await createConnector({ engine: 'pglite', url: 'memory:', seedFile });
  await pglite.test();
  const startup = performance.now() - started;
  figures.push({
    name: 'PGlite start-up with the demo seed',
    measured: `${fixed(startup, 0)} ms`,
    target: `≤ ${STARTUP_TARGET_MS} ms`,
    pass: startup <= STARTUP_TARGET_MS,
  });
  printFigure(figures[0] as Figure);

  const pgSql = 'SELECT count(*) FROM public.orders WHERE org_id = $1';
  const direct = await PGlite.create();
  await direct.exec(
    'CREATE TABLE orders (id int, org_id int); INSERT INTO orders SELECT g, g % 3 FROM generate_series(1, 2550) g',
  );
  rows.push(await measureEngine('pglite', pglite, pgSql, [1], () => direct.query(pgSql, [1]), true));
  await direct.close();
  await pglite.close();

  const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
  if (postgresUrl) {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    const sql = 'SELECT count(*) FROM pg_catalog.pg_class WHERE relpages >= $1';
    const connector = await createConnector({ engine: 'postgres', url: postgresUrl });
    rows.push(await measureEngine('postgres', connector, sql, [0], () => client.query(sql, [0]), true));
    await connector.close();
    await client.end();
  }
  const mysqlUrl = process.env.TABLETALK_TEST_MYSQL_URL;
  if (mysqlUrl) {
    const connection = await mysql.createConnection(mysqlUrl);
    const sql = 'SELECT COUNT(*) AS n FROM information_schema.COLLATIONS WHERE ID >= ?';
    const connector = await createConnector({ engine: 'mysql', url: mysqlUrl });
    rows.push(await measureEngine('mysql', connector, sql, [0], () => connection.execute(sql, [0]), false));
    await connector.close();
    await connection.end();
  }

  for (const row of rows) {
    const overhead = median(row.connector) - median(row.bare);
    const figure: Figure = {
      name: `${row.engine}: execute overhead over a bare query`,
      measured: `+${fixed(overhead, 2)} ms (${ms(row.connector)})`,
      target: 'reported',
    };
    figures.push(figure);
    printFigure(figure);
  }

  const markdown = `## (h) Connectors

Each connector's \`execute\` (read-only transaction, pinned session, bound parameters; PGlite through
its worker thread) against the same small query sent bare through the driver, ${ROUNDS} runs after
${WARMUP} warm-up runs. PGlite start-up: a new worker loading local/demo/shop.sql.

${table(
  ['engine', 'bare query', 'connector execute', 'with EXPLAIN cost check'],
  rows.map((row) => [row.engine, ms(row.bare), ms(row.connector), row.withCost ? ms(row.withCost) : 'n/a']),
)}

PGlite start-up with the demo seed: ${fixed(startup, 0)} ms.
`;
  return { figures, markdown };
};

if (import.meta.main) {
  const section = await measureConnectors();
  console.log(`\n${section.markdown}`);
}
