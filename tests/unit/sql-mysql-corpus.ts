// The MySQL guard's corpus (tests/corpus/mysql-*): the sample shop's catalog and row policy, the
// legitimate queries and the attacks. Shared by the unit and integration suites of
// lib/dialects/mysql/sql-guard.ts; `{db}` in a query stands for the database it runs against.
import { existsSync, readFileSync } from 'node:fs';
import type { Catalog } from '#lib/core/catalog.ts';
import type { EffectivePolicy } from '#lib/core/row-policy.ts';
import type { RefusalCode } from '#lib/sql/types.ts';

const corpusUrl = (name: string): URL => new URL(`../corpus/${name}`, import.meta.url);
const corpus = (name: string): string => readFileSync(corpusUrl(name), 'utf8');

const jsonLines = <T>(text: string): T[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

/** The sample catalog, with its relations in `schema` (the catalog file says `shop`). */
export const sampleCatalog = (schema = 'shop'): Catalog => {
  const catalog = JSON.parse(corpus('mysql-catalog.json')) as Catalog;
  return {
    ...catalog,
    defaultSchema: schema,
    relations: catalog.relations.map((relation) => ({ ...relation, schema })),
  };
};

const rowPolicy = JSON.parse(corpus('mysql-policy.json')) as {
  tenant_column: string;
  scope_column: string;
  tables: EffectivePolicy['tables'];
};

export const samplePolicy = (requiresScoping = true): EffectivePolicy => ({
  requiresScoping,
  tenantColumn: rowPolicy.tenant_column,
  scopeColumn: rowPolicy.scope_column,
  scopeRequired: false,
  tables: rowPolicy.tables,
});

export interface CorpusQuery {
  id: string;
  sql: string;
}

/**
 * What an attack must come to: refused with a code; CONTAINED, allowed and returning only the
 * tenant's rows (checked on the server by the leak oracle); STOPPED, allowed and cut by the
 * statement timeout or a server limit.
 */
export type AttackExpectation = RefusalCode | 'CONTAINED' | 'STOPPED';

export interface CorpusAttack extends CorpusQuery {
  expect: AttackExpectation;
  note: string;
}

export const legitimateQueries = (): CorpusQuery[] => jsonLines<CorpusQuery>(corpus('mysql-queries.jsonl'));

export const attacks = (): CorpusAttack[] =>
  jsonLines<CorpusAttack>(corpus('mysql-attacks.jsonl')).map((attack) =>
    // An attack of more than MAX_SQL_LENGTH characters is stored short and grown here.
    attack.id === 'a-too-long' ? { ...attack, sql: `${attack.sql} ${'AND 1 = 1 '.repeat(2_100)}` } : attack,
  );

export const inDatabase = (sql: string, database: string): string => sql.replaceAll('{db}', database);

/**
 * The PostgreSQL guard's corpus (tests/corpus/queries.jsonl, attacks.jsonl), kept by its
 * author; empty while those files do not exist. Its schema follows mysql-schema.sql, so the
 * queries marked `mysql: true` run on the MySQL sample database as they are.
 */
export const portableQueries = (): CorpusQuery[] =>
  existsSync(corpusUrl('queries.jsonl'))
    ? jsonLines<CorpusQuery & { mysql?: boolean }>(corpus('queries.jsonl')).filter(
        (query) => query.mysql === true,
      )
    : [];

/** Portable queries the MySQL guard refuses, and why. */
export const PORTABLE_REFUSED: Record<string, RefusalCode> = {
  // node-sql-parser cannot read back a derived table inside a parenthesized join.
  'join-nested-parens': 'UNSUPPORTED_SYNTAX',
};

/** The PostgreSQL attacks: mostly PostgreSQL syntax, each must be refused, contained or stopped. */
export const sharedAttacks = (): CorpusQuery[] =>
  existsSync(corpusUrl('attacks.jsonl')) ? jsonLines<CorpusQuery>(corpus('attacks.jsonl')) : [];

/** The schema and seed of the sample database, as loadable SQL text. */
export const sampleSchemaSql = (): string => corpus('mysql-schema.sql');
export const sampleSeedSql = (): string => corpus('mysql-seed.sql');
