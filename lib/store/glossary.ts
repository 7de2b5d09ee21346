// A connected database's glossary (docs/databases.md "Glossary"; docs/design.md "Answering on
// unseen databases"): the operator's words for this database, used by every engine.
//   { "synonyms": { "clients": "owners", "vets": "veterinarian" },
//     "metrics":  { "revenue": "SUM(treatment_items.quantity * treatment_items.unit_price)" },
//     "filters":  { "active": "veterinarian.is_active" } }
// Synonyms name a table (or `table.column`) by another word; metrics and filters are SQL
// expressions over qualified columns. Its shape is checked here; what it says is checked against
// the database before it is saved (lib/manage/glossary.ts, with the guard check of
// lib/answer/glossary.ts). Kept as one item in the database's own partition, beside its locator,
// schema index and query patterns:
//   PK DB#<database id>   SK GLOSSARY   glossary (the map), updatedAt
// so deleting the database deletes it (lib/store/databases.ts).
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { ServiceError } from '#lib/errors.ts';
import { documents, tableName } from './client.ts';

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);
const Term = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  v.maxLength(60),
  v.regex(/^[\p{L}\p{N}][\p{L}\p{N} _'-]*$/u, 'must be a word or a short phrase'),
  v.check((term) => !RESERVED.has(term), 'is a reserved name'),
);
const Target = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*){0,2}$/, 'must name a table or table.column'),
);
const Expression = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(500));
const entries = <T extends v.GenericSchema<string, string>>(value: T) =>
  v.optional(
    v.pipe(
      v.record(Term, value),
      v.check((r) => Object.keys(r).length <= 200, 'has too many entries'),
    ),
    {},
  );

export const GlossarySchema = v.strictObject({
  synonyms: entries(Target),
  metrics: entries(Expression),
  filters: entries(Expression),
});
export type Glossary = v.InferOutput<typeof GlossarySchema>;

export const emptyGlossary = (): Glossary => ({ synonyms: {}, metrics: {}, filters: {} });

export const isEmptyGlossary = (glossary: Glossary | undefined): boolean =>
  !glossary ||
  Object.keys(glossary.synonyms).length +
    Object.keys(glossary.metrics).length +
    Object.keys(glossary.filters).length ===
    0;

/** A glossary's JSON, checked (400 VALIDATION_ERROR naming each bad entry). */
export const parseGlossary = (json: unknown, field = 'glossary'): Glossary => {
  const parsed = v.safeParse(GlossarySchema, json);
  if (parsed.success) return parsed.output;
  const issues = parsed.issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => String(item.key)).join('.');
    return { field: path ? `${field}.${path}` : field, message: issue.message, code: 'INVALID_VALUE' };
  });
  throw new ServiceError('VALIDATION', {
    message: `The glossary is not valid: ${issues[0]?.message}`,
    issues,
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

/** Stores a glossary that was checked already (lib/manage/glossary.ts checks it). */
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
