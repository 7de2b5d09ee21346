// What bench/versus-child.ts times in this checkout, from where this checkout keeps it: the
// sections' own code (bench/sql.ts, bench/builtin.ts) and the MySQL guard on its test corpus.
// A checkout without this file is timed through the module paths of the code before the
// restructuring (bench/versus-child.ts `legacySubjects`).
import { wordVectors } from '#lib/answer/builtin/vectors.ts';
import { lexicalDatabase } from '#lib/answer/builtin/wordnet.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { wideCatalog, wideQuestions } from '../tests/fixtures/catalogs/wide.ts';
import { sampleCatalog, samplePolicy } from '../tests/unit/sql-mysql-corpus.ts';
import { askBuiltin, demoCatalog } from './builtin.ts';
import { corpusGuard } from './sql.ts';
import type { VersusSubjects } from './versus-child.ts';

export const subjects: VersusSubjects = {
  postgresGuard: corpusGuard,
  mysqlGuard: async () => {
    const catalog = sampleCatalog();
    const policy = samplePolicy();
    return (sql) => guardMysql({ sql, catalog, policy, tenant: 1, scope: 'alice', rowCap: 1_000 });
  },
  builtin: async () => {
    lexicalDatabase();
    wordVectors();
    return {
      demo: await demoCatalog(),
      wide: wideCatalog,
      wideQuestions: wideQuestions(),
      ask: (question, catalog) => askBuiltin(question, catalog as Catalog),
    };
  },
};
