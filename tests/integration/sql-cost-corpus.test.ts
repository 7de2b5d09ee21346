// The cost ceiling refuses no legitimate query (docs/design.md "Cost decisions read generic
// plans"): every query of tests/corpus/queries.jsonl, guarded for tenant 1, runs on PGlite under
// the default ceiling. A statement whose generic form cannot be prepared, untyped or typed, is
// refused as too expensive, so a query the generic-plan rewrite breaks shows up here as a refusal.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits } from '#lib/connectors/index.ts';
import { PgliteConnector } from '#lib/connectors/pglite.ts';
import { guardPostgres } from '#lib/sql/postgres.ts';
import { corpusCatalog, corpusPolicy, corpusQueries } from '../corpus/postgres-oracle.ts';

const schemaFile = fileURLToPath(new URL('../corpus/schema.sql', import.meta.url));

describe('the cost ceiling on the legitimate corpus (PGlite)', () => {
  let connector: PgliteConnector;
  beforeAll(() => {
    connector = new PgliteConnector({ seedFile: schemaFile });
  });
  afterAll(() => connector?.close());

  it('runs every corpus query the guard allows, none refused for cost', async () => {
    const limits = defaultLimits({ timeoutMs: 5_000 });
    expect(limits.maxCost).toBeGreaterThan(0);
    const refused: string[] = [];
    let ran = 0;
    for (const query of corpusQueries()) {
      const outcome = await guardPostgres({
        sql: query.sql,
        catalog: corpusCatalog(),
        policy: corpusPolicy(),
        tenant: 1,
        rowCap: 100,
      });
      if (!outcome.allowed) continue;
      try {
        await connector.execute(outcome.sql, outcome.params, limits);
        ran += 1;
      } catch (error) {
        if ((error as { detail?: string }).detail === 'QUERY_TOO_EXPENSIVE') refused.push(query.id);
      }
    }
    expect(refused).toEqual([]);
    expect(ran).toBeGreaterThan(250);
  }, 300_000);
});
