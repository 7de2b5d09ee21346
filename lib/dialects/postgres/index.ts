// PostgreSQL (docs/design.md "Databases as one seam"): servers reached by URL, and PGlite, the
// same server compiled to WASM and run inside the service from a seed file (`memory:`). The
// guard parses with libpg-query, the server's own grammar; connectors are node-postgres and a
// PGlite worker; the EXPLAIN cost ceiling reads the generic plan (generic-cost.ts).
import type { Dialect } from '../types.ts';
import { POSTGRES_SYSTEM } from './policy.ts';

export const postgres: Dialect = {
  name: 'postgres',
  displayName: 'PostgreSQL',
  productName: 'PostgreSQL',
  catalogProbeWords: ['pg_\\w+', 'information_schema', 'pg_catalog'],
  engines: [
    {
      name: 'postgres',
      urlSchemes: ['postgres:', 'postgresql:'],
      embedded: false,
      databaseInUrl: false,
      exampleUrl: 'postgres://user:password@host:5432/database?sslmode=verify-full',
    },
    {
      name: 'pglite',
      urlSchemes: ['memory:'],
      embedded: true,
      databaseInUrl: false,
    },
  ],
  ...POSTGRES_SYSTEM,
  bareIdentifier: /^[a-z_][a-z0-9_]*$/,
  quote: (name) => `"${name.replaceAll('"', '""')}"`,
  promptNote:
    'PostgreSQL: double-quote identifiers that need quoting; date_trunc, extract, ' +
    "interval '1 month', ILIKE for case-insensitive matching.",
  dates: {
    daysBetween: (start, end) => `(${end} - ${start})`,
    secondsBetween: (start, end) => `EXTRACT(EPOCH FROM (${end} - ${start}))`,
    isoWeekday: (value) => `EXTRACT(ISODOW FROM ${value})`,
    isoWeek: (value) => `EXTRACT(ISOYEAR FROM ${value}) * 100 + EXTRACT(WEEK FROM ${value})`,
  },
  text: {
    asText: (value) => `CAST(${value} AS text)`,
    folded: (text, accented, plain) => `translate(lower(${text}), ${accented}, ${plain})`,
  },
  expressions: {
    ownOperators: true,
    temporalArithmetic: true,
    intervals: true,
    greatestSkipsNulls: true,
    moreExtractFields: /^(dow|isodow|doy|week|isoyear|decade|century|millennium)$/,
    distinct: (left, right, negated) => `${left} IS ${negated ? 'NOT ' : ''}DISTINCT FROM ${right}`,
    castType: (type, mods) => {
      const names: Record<string, string> = {
        numeric: 'NUMERIC',
        int2: 'SMALLINT',
        int4: 'INTEGER',
        int8: 'BIGINT',
        float4: 'REAL',
        float8: 'DOUBLE PRECISION',
        text: 'TEXT',
        varchar: 'VARCHAR',
        bpchar: 'CHAR',
        date: 'DATE',
        timestamp: 'TIMESTAMP',
        timestamptz: 'TIMESTAMPTZ',
        interval: 'INTERVAL',
        bool: 'BOOLEAN',
      };
      const name = names[type];
      if (name === undefined) return undefined;
      const modifiers = mods.length > 0 ? `(${mods.join(', ')})` : '';
      return `${name}${name === 'NUMERIC' || name === 'VARCHAR' || name === 'CHAR' ? modifiers : ''}`;
    },
  },
};
