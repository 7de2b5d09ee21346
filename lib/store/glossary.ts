// A connected database's glossary (docs/design.md "Answering on unseen databases"; the schema
// and the guard check are lib/answer/glossary.ts): `{synonyms, metrics, filters}`, kept as one item
// in the database's own partition, beside its locator, schema index and query patterns:
//   PK DB#<database id>   SK GLOSSARY   glossary (the map), updatedAt
// so deleting the database deletes it (lib/store/databases.ts). Saving checks it first: every
// metric and filter passes the database's SQL guard against its schema index, every synonym names
// a table or column of it (400 VALIDATION_ERROR naming each refused entry, nothing stored).
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { checkGlossary, emptyGlossary, type Glossary, parseGlossary } from '#lib/answer/glossary.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardOf } from '#lib/dialects/machinery.ts';
import { ServiceError } from '#lib/errors.ts';
import { documents, tableName } from './client.ts';
import type { DatabaseRecord } from './databases.ts';
import { readSchemaIndex } from './schema-index.ts';

export { type Glossary, parseGlossary } from '#lib/answer/glossary.ts';

/**
 * What is checked against a database's schema index cannot be saved before it has one: 422
 * (VALIDATION_ERROR, detail SCHEMA_NOT_INDEXED), as an answer on such a database.
 */
export const notIndexed = (databaseId: string, what: string): ServiceError => {
  const message = `Database ${databaseId} has no schema index yet, and ${what} is checked against it: wait for its indexing job, or index it (POST /api/v1/organization/databases/{id}/index, admin database index)`;
  return new ServiceError('CONNECTION_TEST_FAILED', {
    message,
    detail: 'SCHEMA_NOT_INDEXED',
    issues: [{ field: 'database_id', message, code: 'SCHEMA_NOT_INDEXED' }],
  });
};

export const glossaryKey = (databaseId: string) => ({ PK: `DB#${databaseId}`, SK: 'GLOSSARY' });

/** The database's glossary; empty when none was saved. */
export const readGlossary = async (databaseId: string): Promise<Glossary> => {
  const { Item } = await documents().send(
    new GetCommand({ TableName: tableName(), Key: glossaryKey(databaseId) }),
  );
  return Item?.glossary ? parseGlossary(Item.glossary) : emptyGlossary();
};

/** Checks a glossary against a catalog and the database's row policy (400 naming each refused entry). */
export const checkGlossaryFor = async (
  database: DatabaseRecord,
  glossary: Glossary,
  catalog: Catalog,
): Promise<void> => {
  await checkGlossary(glossary, {
    catalog,
    policy: effectivePolicy(database),
    guard: await guardOf(catalog.dialect),
  });
};

/** Stores a glossary that was checked already (the indexing job checks one given at creation). */
export const putGlossary = async (
  databaseId: string,
  glossary: Glossary,
  now = new Date(),
): Promise<void> => {
  await documents().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...glossaryKey(databaseId), type: 'glossary', glossary, updatedAt: now.toISOString() },
    }),
  );
};

/**
 * Checks and replaces the database's glossary. `catalog` defaults to its schema index; a database
 * that has none yet cannot be checked (400: index it first).
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
  await putGlossary(database.id, glossary);
  return glossary;
};
