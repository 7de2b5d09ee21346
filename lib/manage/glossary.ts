// A database's glossary through the control plane (docs/control-plane.md "Glossary"), the admin
// command and the indexing job: `{synonyms, metrics, filters}` read and replaced whole. Saving
// checks it first against the database's schema index, row policy and SQL guard
// (lib/answer/glossary.ts checkGlossaryFor): a refused entry is 400 VALIDATION_ERROR naming each
// one, and nothing is stored. The container that saved it forgets its cached copy, so its next
// answer uses the new glossary.
import { forgetAnswerGlossary } from '#lib/answer/catalog.ts';
import { checkGlossaryFor } from '#lib/answer/glossary.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { notIndexed } from '#lib/sql/saved-sql.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import {
  type Glossary,
  parseGlossary,
  readGlossary,
  putGlossary as writeGlossary,
} from '#lib/store/glossary.ts';
import { readSchemaIndex } from '#lib/store/schema-index.ts';
import { databaseOf } from './databases.ts';

/**
 * Checks and replaces the database's glossary. `catalog` defaults to its schema index; a database
 * that has none yet cannot be checked (422: index it first).
 */
export const saveGlossary = async (
  database: DatabaseRecord,
  input: unknown,
  options: { catalog?: Catalog; field?: string } = {},
): Promise<Glossary> => {
  const glossary = parseGlossary(input, options.field);
  const catalog = options.catalog ?? (await readSchemaIndex(database));
  if (!catalog) throw notIndexed(database.id, 'the glossary');
  await checkGlossaryFor(database, glossary, catalog);
  await writeGlossary(database.id, glossary);
  return glossary;
};

export const getGlossary = async (organizationId: number, databaseId: string): Promise<Glossary> => {
  await databaseOf(organizationId, databaseId);
  return readGlossary(databaseId);
};

export const putGlossary = async (
  organizationId: number,
  databaseId: string,
  body: Glossary,
): Promise<Glossary> => {
  const saved = await saveGlossary(await databaseOf(organizationId, databaseId), body, { field: 'body' });
  forgetAnswerGlossary(databaseId);
  return saved;
};
