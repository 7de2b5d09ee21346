// The typed client's generated files (clients/typescript/openapi.json and src/schema.ts) are what
// lib/openapi and openapi-typescript make now: a change to the API without `npm run
// generate:client` fails here (and `npm run lint:openapi` in CI).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_FILE, generatedFiles, SCHEMA_FILE } from '../../clients/typescript/scripts/generate.ts';

describe('the typed client', () => {
  it('is generated from the current OpenAPI document', async () => {
    const files = await generatedFiles();
    expect(Object.keys(files).sort()).toEqual([DOCUMENT_FILE, SCHEMA_FILE].sort());
    for (const [file, text] of Object.entries(files))
      expect(readFileSync(file, 'utf8') === text, `${file} is out of date: npm run generate:client`).toBe(
        true,
      );
    // The types name every operation of the document.
    const document = JSON.parse(files[DOCUMENT_FILE]!) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    for (const methods of Object.values(document.paths))
      for (const { operationId } of Object.values(methods))
        expect(files[SCHEMA_FILE]).toContain(`    ${operationId}: {`);
  }, 30_000);
});
