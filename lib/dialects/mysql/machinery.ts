// MySQL's and MariaDB's machinery (lib/dialects/types.ts DialectMachinery): mysql2, and
// node-sql-parser for the guard and the egress rules, each imported on first use.
import type { DialectMachinery } from '../types.ts';

export const machinery: DialectMachinery = {
  connect: async (_engine, { url, connectTimeoutMs, poolSize }) => {
    const { MysqlConnector } = await import('./connector.ts');
    return new MysqlConnector({ url, connectTimeoutMs, poolSize });
  },
  guard: async () => (await import('./sql-guard.ts')).guardMysql,
  egress: async () => {
    const [parser, reading] = await Promise.all([import('./parser.ts'), import('./egress.ts')]);
    return { parseStatements: parser.parseStatements, ...reading.MYSQL_EGRESS };
  },
};
