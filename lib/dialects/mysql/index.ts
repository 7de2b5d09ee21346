// MySQL and MariaDB (docs/design.md "Databases as one seam"): servers reached by URL through
// mysql2; the guard parses with node-sql-parser's MySQL grammar and checks what it printed
// against the tree it parsed (verify.ts), since that parser is not the server's own.
import type { Dialect } from '../types.ts';
import { MYSQL_SYSTEM } from './policy.ts';

export const mysql: Dialect = {
  name: 'mysql',
  displayName: 'MySQL',
  productName: 'MySQL/MariaDB',
  catalogProbeWords: ['information_schema', 'mysql\\.user'],
  engines: [
    {
      name: 'mysql',
      urlSchemes: ['mysql:', 'mariadb:'],
      embedded: false,
      databaseInUrl: true,
      exampleUrl: 'mysql://user:password@host:3306/database',
    },
  ],
  ...MYSQL_SYSTEM,
  bareIdentifier: /^[A-Za-z_][A-Za-z0-9_]*$/,
  quote: (name) => `\`${name.replaceAll('`', '``')}\``,
  promptNote:
    'MySQL: backquote identifiers that need quoting; YEAR(), MONTH(), DATE_FORMAT, ' +
    'DATE_SUB(CURRENT_DATE, INTERVAL 1 MONTH); no FULL OUTER JOIN.',
  dates: {
    daysBetween: (start, end) => `DATEDIFF(${end}, ${start})`,
    secondsBetween: (start, end) => `TIMESTAMPDIFF(SECOND, ${start}, ${end})`,
    isoWeekday: (value) => `WEEKDAY(${value}) + 1`,
    isoWeek: (value) => `YEARWEEK(${value}, 3)`,
  },
  text: {
    asText: (value) => `CAST(${value} AS CHAR)`,
    // Case only: the column's collation decides accents.
    folded: (text) => `LOWER(${text})`,
  },
  expressions: {
    ownOperators: false,
    // MySQL subtracts dates as numbers (20240105 - 20231231): only whole days of two dates say it.
    temporalArithmetic: false,
    intervals: false,
    greatestSkipsNulls: false,
    distinct: (left, right, negated) => `${negated ? '' : 'NOT '}(${left} <=> ${right})`,
    // MySQL's CAST takes few types: DECIMAL needs its digits (DECIMAL alone is DECIMAL(10, 0)).
    castType: (type, [precision, scale]) => {
      switch (type) {
        case 'numeric':
          return precision === undefined ? undefined : `DECIMAL(${precision}, ${scale ?? 0})`;
        case 'int2':
        case 'int4':
        case 'int8':
        case 'signed':
          return 'SIGNED';
        case 'unsigned':
          return 'UNSIGNED';
        case 'float4':
        case 'float8':
          return 'DOUBLE';
        case 'text':
        case 'varchar':
        case 'bpchar':
          return 'CHAR';
        case 'date':
          return 'DATE';
        case 'timestamp':
          return 'DATETIME';
        default:
          return undefined;
      }
    },
  },
};
