// Recursive CTEs whose step can grow a value are refused (lib/sql/recursion.ts, docs/design.md
// "Recursion"), in both guards: growth computed in the output list, in a LATERAL or derived table,
// a nested WITH or a scalar subquery, and growth from a single reference (replace, regexp_replace,
// translate, overlay). The usual recursive queries (counters, trees, dates, a path built with one
// reference per step) stay allowed.
import { describe, expect, it } from 'vitest';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import type { GuardOutcome } from '#lib/sql/types.ts';
import { corpusCatalog, corpusPolicy } from '../corpus/postgres-oracle.ts';
import { sampleCatalog, samplePolicy } from './sql-mysql-corpus.ts';

const postgres = async (sql: string): Promise<GuardOutcome> =>
  guardPostgres({ sql, catalog: corpusCatalog(), policy: corpusPolicy(), tenant: 1, rowCap: 100 });
const mysql = async (sql: string): Promise<GuardOutcome> =>
  guardMysql({ sql, catalog: sampleCatalog(), policy: samplePolicy(), tenant: 1, rowCap: 100 });

const codeOf = (outcome: GuardOutcome): string => (outcome.allowed ? 'allowed' : outcome.code);

const POSTGRES_GROWING = [
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT r.s || r.s, n + 1 FROM r WHERE n < 40) SELECT n, length(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT d.x, r.n + 1 FROM r, LATERAL (SELECT r.s || r.s AS x) d WHERE r.n < 40) SELECT n, length(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT d.x, r.n + 1 FROM r CROSS JOIN LATERAL (SELECT concat(r.s, r.s) AS x) d WHERE r.n < 40) SELECT n, length(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT (SELECT x FROM (SELECT r.s AS y) q, LATERAL (SELECT q.y || q.y AS x) z), n + 1 FROM r WHERE n < 40) SELECT n, length(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT (SELECT q.y || q.y FROM (SELECT r.s AS y) q), n + 1 FROM r WHERE n < 40) SELECT n, length(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop'::text, 1 UNION ALL SELECT translate(s, 'a', 'aa'), n + 1 FROM r WHERE n < 40) SELECT n, length(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop'::text, 1 UNION ALL SELECT regexp_replace(s, '(.)', '\\1\\1', 'g'), n + 1 FROM r WHERE n < 40) SELECT n, length(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop'::text, 1 UNION ALL SELECT replace(s, 'a', 'aa'), n + 1 FROM r WHERE n < 40) SELECT n, length(s) FROM r",
  'WITH RECURSIVE r(a, n) AS (SELECT ARRAY[1], 1 UNION ALL SELECT a || a, n + 1 FROM r WHERE n < 40) SELECT n FROM r',
  "WITH RECURSIVE r(s, n) AS (SELECT 'ab'::text, 1 UNION ALL SELECT t.s, r.n + 1 FROM r, (WITH q AS (SELECT r.s || r.s AS s) SELECT * FROM q) t WHERE r.n < 40) SELECT n FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'ab'::text, 1 UNION ALL SELECT v.x, r.n + 1 FROM r, LATERAL (VALUES (r.s || r.s)) v(x) WHERE r.n < 40) SELECT n FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'ab'::text, 1 UNION ALL SELECT f.x, r.n + 1 FROM r, LATERAL concat(r.s, r.s) AS f(x) WHERE r.n < 40) SELECT n FROM r",
  'WITH RECURSIVE r(a, n) AS (SELECT ARRAY[1], 1 UNION ALL SELECT ARRAY(SELECT unnest(r.a) UNION ALL SELECT unnest(r.a)), n + 1 FROM r WHERE n < 40) SELECT n FROM r',
  "WITH RECURSIVE r(s, n) AS (SELECT 'ab'::text, 1 UNION ALL SELECT lpad(s, 2 * length(s), s), n + 1 FROM r WHERE n < 40) SELECT n FROM r",
  // The text of a whole previous row nests that row's text, its quotes doubled, every step.
  "WITH RECURSIVE r(s, n) AS (SELECT 'ab'::text, 1 UNION ALL SELECT r::text, n + 1 FROM r WHERE n < 40) SELECT n FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'ab'::text, 1 UNION ALL SELECT c.name || r::text, n + 1 FROM r, categories c WHERE n < 40) SELECT n FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'ab'::text, 1 UNION ALL SELECT q.x::text, r.n + 1 FROM r, LATERAL (SELECT r.* AS x) q WHERE r.n < 40) SELECT n FROM r",
];

const MYSQL_GROWING = [
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT CONCAT(s, s), n + 1 FROM r WHERE n < 40) SELECT n, LENGTH(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT REPLACE(s, 'a', 'aa'), n + 1 FROM r WHERE n < 40) SELECT n, LENGTH(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT SPACE(LENGTH(s) * 2), n + 1 FROM r WHERE n < 40) SELECT n, LENGTH(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT (SELECT CONCAT(x.s, x.s) FROM (SELECT r.s AS s) x), n + 1 FROM r WHERE n < 40) SELECT n, LENGTH(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT x.d, n + 1 FROM r JOIN (SELECT 1 AS k) y ON 1=1, LATERAL (SELECT CONCAT(r.s, r.s) AS d) x WHERE n < 40) SELECT n, LENGTH(s) FROM r",
  "WITH RECURSIVE r(s, n) AS (SELECT 'ab', 1 UNION ALL SELECT CONCAT(r.s, x.s), r.n + 1 FROM r, (SELECT s FROM r) x WHERE r.n < 40) SELECT n FROM r",
];

/** Growing steps another rule already refuses (a function outside the allow-list, syntax the parser lacks). */
const REFUSED_OTHERWISE: [string, () => Promise<GuardOutcome>][] = [
  [
    'overlay on PostgreSQL',
    () =>
      postgres(
        "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT overlay(s placing s from 1 for 0), n + 1 FROM r WHERE n < 40) SELECT n, length(s) FROM r",
      ),
  ],
  [
    'REGEXP_REPLACE on MySQL',
    () =>
      mysql(
        "WITH RECURSIVE r(s, n) AS (SELECT 'abcdefghijklmnop', 1 UNION ALL SELECT REGEXP_REPLACE(s, '(.)', '\\\\1\\\\1'), n + 1 FROM r WHERE n < 40) SELECT n, LENGTH(s) FROM r",
      ),
  ],
];

const POSTGRES_ALLOWED = [
  'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT sum(i) FROM n',
  'WITH RECURSIVE tree AS (SELECT id, parent_id, name, 0 AS depth FROM categories WHERE parent_id IS NULL UNION ALL SELECT c.id, c.parent_id, c.name, t.depth + 1 FROM categories c JOIN tree t ON c.parent_id = t.id) SELECT id, name, depth FROM tree ORDER BY id',
  "WITH RECURSIVE path(id, route) AS (SELECT id, name FROM categories WHERE parent_id IS NULL UNION ALL SELECT c.id, p.route || ' > ' || c.name FROM categories c JOIN path p ON p.id = c.parent_id) SELECT * FROM path ORDER BY id",
  "WITH RECURSIVE d(day) AS (SELECT DATE '2024-01-01' UNION ALL SELECT (day + 1)::date FROM d WHERE day < DATE '2024-01-10') SELECT day FROM d",
  'WITH RECURSIVE tree AS (SELECT id, parent_id, name FROM categories WHERE parent_id IS NULL UNION ALL SELECT c.id, c.parent_id, lower(c.name) FROM categories c JOIN tree ON c.parent_id = tree.id WHERE EXISTS (SELECT 1 FROM categories x WHERE x.id = c.id)) SELECT count(*) FROM tree',
  'WITH RECURSIVE tree AS (SELECT id, parent_id FROM categories WHERE parent_id IS NULL UNION ALL SELECT t.* FROM (SELECT * FROM categories) c JOIN tree t ON c.parent_id = t.id WHERE t.id < 0) SELECT count(*) FROM tree',
];

const MYSQL_ALLOWED = [
  'WITH RECURSIVE seq AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM seq WHERE n < 12) SELECT seq.n FROM seq',
  "WITH RECURSIVE r(id, route) AS (SELECT id, name FROM customers WHERE id = 1 UNION ALL SELECT c.id, CONCAT(r.route, ' > ', c.name) FROM customers c JOIN r ON c.id = r.id + 1) SELECT route FROM r",
];

describe('recursive CTEs on PostgreSQL', () => {
  it.each(POSTGRES_GROWING)('refuses a step that can grow a value: %s', async (sql) => {
    expect(codeOf(await postgres(sql))).toBe('SIZE_NOT_BOUNDED');
  });
  it.each(POSTGRES_ALLOWED)('allows %s', async (sql) => {
    expect(codeOf(await postgres(sql))).toBe('allowed');
  });
});

it.each(REFUSED_OTHERWISE)('refuses a growing step through another rule: %s', async (_name, outcome) => {
  expect((await outcome()).allowed).toBe(false);
});

describe('recursive CTEs on MySQL / MariaDB', () => {
  it.each(MYSQL_GROWING)('refuses a step that can grow a value: %s', async (sql) => {
    expect(codeOf(await mysql(sql))).toBe('SIZE_NOT_BOUNDED');
  });
  it.each(MYSQL_ALLOWED)('allows %s', async (sql) => {
    expect(codeOf(await mysql(sql))).toBe('allowed');
  });
});
