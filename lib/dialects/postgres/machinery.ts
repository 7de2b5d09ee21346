// PostgreSQL's machinery (lib/dialects/types.ts DialectMachinery): node-postgres for servers, a
// PGlite worker for the embedded engine, libpg-query for the guard and the egress rules, each
// imported on first use. A stage without embedded databases bundles pglite-absent.ts in place of
// pglite.ts (infra/esbuild-plugins.cjs).
import type { DialectMachinery } from '../types.ts';

export const machinery: DialectMachinery = {
  connect: async (engine, { url, seedFile, connectTimeoutMs, poolSize }) => {
    if (engine === 'pglite') {
      const { PgliteConnector } = await import('./pglite.ts');
      return new PgliteConnector(seedFile ? { seedFile } : {});
    }
    const { PostgresConnector } = await import('./connector.ts');
    return new PostgresConnector({ url, connectTimeoutMs, poolSize });
  },
  guard: async () => (await import('./sql-guard.ts')).guardPostgres,
  egress: async () => {
    const [parser, reading] = await Promise.all([import('./parser.ts'), import('./egress.ts')]);
    await parser.loadPostgresParser();
    return { parseStatements: parser.parseStatements, ...reading.POSTGRES_EGRESS };
  },
};
