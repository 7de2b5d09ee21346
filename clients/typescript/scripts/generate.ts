// Writes the typed client's inputs from the API's own OpenAPI document (lib/openapi): the document
// itself (clients/typescript/openapi.json, what `npm run lint:openapi` lints) and its TypeScript
// types (clients/typescript/src/schema.ts, by openapi-typescript).
//
//   node clients/typescript/scripts/generate.ts          write both
//   node clients/typescript/scripts/generate.ts --check  fail when either differs from the code
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '../../../lib/openapi/document.ts';

const folder = join(import.meta.dirname, '..');
export const DOCUMENT_FILE = join(folder, 'openapi.json');
export const SCHEMA_FILE = join(folder, 'src', 'schema.ts');

const banner =
  '// Generated from the OpenAPI document (clients/typescript/openapi.json) by openapi-typescript:\n' +
  '// `node clients/typescript/scripts/generate.ts`. Do not edit.\n\n';

/** The two files as the current code makes them. */
export const generatedFiles = async (): Promise<Record<string, string>> => {
  const document = buildOpenApiDocument();
  const types = astToString(
    await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], {
      // Every property a response declares required is there; optional ones may be absent.
      exportType: false,
      alphabetize: false,
    }),
  );
  return {
    [DOCUMENT_FILE]: `${JSON.stringify(document, null, 2)}\n`,
    [SCHEMA_FILE]: banner + types,
  };
};

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

if (import.meta.main) {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
  const files = await generatedFiles();
  const stale = Object.entries(files).filter(([file, text]) => read(file) !== text);
  if (values.check) {
    if (stale.length > 0) {
      console.error(
        `Out of date with lib/openapi: ${stale.map(([file]) => file.slice(folder.length - 'clients/typescript'.length)).join(', ')}.\n` +
          'Run `npm run generate:client` and commit the result.',
      );
      process.exit(1);
    }
    console.log('The client document and types are current.');
  } else {
    for (const [file, text] of stale) writeFileSync(file, text);
    console.log(stale.length === 0 ? 'Nothing to write.' : `Wrote ${stale.map(([file]) => file).join(', ')}`);
  }
}
