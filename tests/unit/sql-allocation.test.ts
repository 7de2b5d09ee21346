// Functions that allocate memory from an argument (lib/sql/allocation.ts, docs/design.md "Tenant
// filtering and the SQL guard"): refused, or their size argument bounded by a constant the guard
// checks, in both guards. Refusals carry SIZE_NOT_BOUNDED (FUNCTION_NOT_ALLOWED for the
// functions left out of the allowlists).
import { describe, expect, it } from 'vitest';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { MAX_SERIES_ROWS, MAX_SIZE_ARGUMENT } from '#lib/sql/allocation.ts';
import type { GuardOutcome, GuardRequest } from '#lib/sql/types.ts';
import { corpusCatalog, corpusPolicy } from '../corpus/postgres-oracle.ts';
import { sampleCatalog, samplePolicy } from './sql-mysql-corpus.ts';

const postgres = async (sql: string): Promise<string> => {
  const outcome = await guardPostgres({
    sql,
    catalog: corpusCatalog(),
    policy: corpusPolicy(),
    tenant: 1,
    rowCap: 100,
  } as GuardRequest);
  return outcome.allowed ? 'ALLOWED' : outcome.code;
};

const mysql = (sql: string): string => {
  const outcome = guardMysql({
    sql,
    catalog: sampleCatalog(),
    policy: samplePolicy(),
    tenant: 1,
    rowCap: 100,
  } as GuardRequest) as GuardOutcome;
  return outcome.allowed ? 'ALLOWED' : outcome.code;
};

describe('PostgreSQL: padding functions', () => {
  it('refuses lpad / rpad asking for a gigabyte, with a clear code and message', async () => {
    expect(await postgres("SELECT lpad('x', 1000000000)")).toBe('SIZE_NOT_BOUNDED');
    const outcome = await guardPostgres({
      sql: "SELECT rpad(name, 1000000000, '-') FROM customers",
      catalog: corpusCatalog(),
      policy: corpusPolicy(),
      tenant: 1,
      rowCap: 100,
    });
    expect(outcome).toMatchObject({
      allowed: false,
      code: 'SIZE_NOT_BOUNDED',
      message: `rpad's length must be an integer constant from 0 to ${MAX_SIZE_ARGUMENT}`,
    });
  });

  it.each([
    ['a constant up to the bound', `SELECT lpad(name, 20) FROM customers`],
    ['zero', `SELECT lpad(name, 0) FROM customers`],
    ['the bound itself', `SELECT rpad(name, ${MAX_SIZE_ARGUMENT}, '.') FROM customers`],
    ['pg_catalog-qualified', `SELECT pg_catalog.lpad(id::text, 6, '0') FROM customers`],
  ])('allows lpad / rpad with %s', async (_what, sql) => {
    expect(await postgres(sql)).toBe('ALLOWED');
  });

  it.each([
    ['over the bound', `SELECT lpad(name, ${MAX_SIZE_ARGUMENT + 1}) FROM customers`],
    ['a column', 'SELECT lpad(name, id) FROM customers'],
    ['arithmetic on constants', 'SELECT lpad(name, 100 * 100 * 100) FROM customers'],
    ['a subquery', 'SELECT lpad(name, (SELECT max(id) FROM orders)) FROM customers'],
    ['a negative constant', 'SELECT lpad(name, -1) FROM customers'],
    ['a fraction', 'SELECT lpad(name, 2.5) FROM customers'],
    ['a named argument', 'SELECT lpad(name, "length" => 5) FROM customers'],
  ])('refuses lpad with %s as its length', async (_what, sql) => {
    expect(await postgres(sql)).toBe('SIZE_NOT_BOUNDED');
  });

  it('refuses repeat and overlay outright', async () => {
    expect(await postgres("SELECT repeat('x', 3)")).toBe('FUNCTION_NOT_ALLOWED');
    expect(await postgres("SELECT overlay(name placing 'x' from 1 for 1) FROM customers")).toBe(
      'FUNCTION_NOT_ALLOWED',
    );
  });

  it('bounds format() widths, and refuses widths taken from an argument', async () => {
    expect(await postgres("SELECT format('%s: %10s', name, email) FROM customers")).toBe('ALLOWED');
    expect(await postgres("SELECT format('%-20s|%%', name) FROM customers")).toBe('ALLOWED');
    expect(await postgres("SELECT format('%1000000000s', name) FROM customers")).toBe('SIZE_NOT_BOUNDED');
    expect(await postgres("SELECT format('%*s', 1000000000, name) FROM customers")).toBe('SIZE_NOT_BOUNDED');
    expect(await postgres('SELECT format(name, email) FROM customers')).toBe('SIZE_NOT_BOUNDED');
  });

  it('refuses string_agg and array_agg of padded values, allows them of plain ones', async () => {
    expect(await postgres("SELECT string_agg(name, ', ' ORDER BY name) FROM customers")).toBe('ALLOWED');
    expect(await postgres("SELECT string_agg(lpad(name, 10000), ',') FROM customers")).toBe(
      'SIZE_NOT_BOUNDED',
    );
    expect(await postgres('SELECT array_agg(rpad(name, 5000)) FROM customers')).toBe('SIZE_NOT_BOUNDED');
    expect(await postgres("SELECT string_agg(format('%9000s', name), '') FROM customers")).toBe(
      'SIZE_NOT_BOUNDED',
    );
  });
});

describe('PostgreSQL: generate_series', () => {
  it.each([
    ['integer constants', 'SELECT g FROM generate_series(1, 100) AS g'],
    ['a negative step', 'SELECT g FROM generate_series(10, -10, -2) AS g'],
    ['exactly the bound', `SELECT count(*) FROM generate_series(1, ${MAX_SERIES_ROWS}) AS g`],
    [
      'a date spine between constants (the corpus query)',
      "SELECT d::date AS day FROM generate_series(TIMESTAMP '2024-03-01', TIMESTAMP '2024-03-14', INTERVAL '1 day') AS d",
    ],
    [
      'cast string bounds',
      "SELECT generate_series('2024-01-01'::date, '2024-12-31'::date, '1 day'::interval)",
    ],
    [
      'the last twelve months, relative to now()',
      "SELECT m FROM generate_series(date_trunc('month', now()) - INTERVAL '11 months', date_trunc('month', now()), INTERVAL '1 month') AS m",
    ],
    [
      'the last 30 days, in date arithmetic',
      "SELECT d FROM generate_series(current_date - 30, current_date, INTERVAL '1 day') AS d",
    ],
    ['INTERVAL n DAY', "SELECT generate_series(DATE '2024-01-01', DATE '2024-02-01', INTERVAL '1' DAY)"],
  ])('allows a series with %s', async (_what, sql) => {
    expect(await postgres(sql)).toBe('ALLOWED');
  });

  it.each([
    ['wide integer bounds', 'SELECT count(*) FROM generate_series(1, 1000000000000) AS g'],
    ['one row over the bound', `SELECT count(*) FROM generate_series(1, ${MAX_SERIES_ROWS + 1}) AS g`],
    ['a bound read from the data', 'SELECT g FROM orders o, generate_series(1, o.id) AS g'],
    ['a bound from a subquery', 'SELECT generate_series(1, (SELECT max(id) FROM orders))'],
    ['a step of zero', 'SELECT generate_series(1, 10, 0)'],
    [
      'a microsecond step over a year',
      "SELECT count(*) FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2025-01-01', INTERVAL '1 microsecond') AS t",
    ],
    [
      'infinite bounds',
      "SELECT generate_series(TIMESTAMP '2024-01-01', TIMESTAMP 'infinity', INTERVAL '1 day')",
    ],
    [
      'a data-dependent time bound',
      "SELECT generate_series(min(ordered_at), now(), INTERVAL '1 day') FROM orders",
    ],
    [
      'one fixed and one relative bound',
      "SELECT generate_series(DATE '2000-01-01', now(), INTERVAL '1 day')",
    ],
    [
      'a step that may come to zero',
      "SELECT generate_series(now(), now() + INTERVAL '1 year', INTERVAL '1 mon -30 days')",
    ],
    [
      'a step from the data',
      'SELECT generate_series(now(), now(), max(ordered_at) - min(ordered_at)) FROM orders',
    ],
  ])('refuses a series with %s', async (_what, sql) => {
    expect(await postgres(sql)).toBe('SIZE_NOT_BOUNDED');
  });
});

describe('MySQL: padding functions', () => {
  it('refuses LPAD asking for a gigabyte and allows a constant length', () => {
    expect(mysql("SELECT LPAD('x', 1000000000)")).toBe('SIZE_NOT_BOUNDED');
    expect(mysql('SELECT LPAD(name, 20) FROM customers')).toBe('ALLOWED');
    expect(mysql("SELECT RPAD(name, 20, '.') FROM customers")).toBe('ALLOWED');
  });

  it.each([
    ['RPAD over the bound', `SELECT RPAD(name, ${MAX_SIZE_ARGUMENT + 1}, '.') FROM customers`],
    ['LPAD with a column length', "SELECT LPAD(name, id, '0') FROM customers"],
    ['SPACE with a huge count', 'SELECT SPACE(1000000000)'],
    ['SPACE with a column', 'SELECT SPACE(id) FROM customers'],
    ['GROUP_CONCAT of padded values', 'SELECT GROUP_CONCAT(LPAD(name, 9000)) FROM customers'],
  ])('refuses %s', (_what, sql) => {
    expect(mysql(sql)).toBe('SIZE_NOT_BOUNDED');
  });

  it('allows SPACE with a small constant and GROUP_CONCAT of plain values', () => {
    expect(mysql('SELECT CONCAT(name, SPACE(2), email) FROM customers')).toBe('ALLOWED');
    expect(mysql("SELECT GROUP_CONCAT(DISTINCT name ORDER BY name SEPARATOR ', ') FROM customers")).toBe(
      'ALLOWED',
    );
  });

  it('refuses REPEAT and INSERT outright', () => {
    expect(mysql("SELECT REPEAT('x', 3)")).toBe('FUNCTION_NOT_ALLOWED');
    expect(mysql("SELECT INSERT(name, 1, 2, 'x') FROM customers")).toBe('FUNCTION_NOT_ALLOWED');
  });
});
