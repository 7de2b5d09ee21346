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
};
