// Column descriptions of a connected database (docs/databases.md "Column descriptions"): what a
// column means in words, read from the database itself (`COMMENT ON COLUMN` on PostgreSQL, column
// comments on MySQL) or given by the operator as a descriptions file at `admin database add
// --descriptions file.json`, in the `table_metadata` format of the Defog data set:
//   { "table_metadata": { "<table>": [ { "column_name": "rating", "column_description": "…" } ] } }
// A file's description replaces the database's own comment for that column. The builtin engine
// links question words to a column through the words of its description; the model engines see
// them in the schema part of their prompt.
import * as v from 'valibot';
import type { Catalog } from '#lib/core/catalog.ts';

const Text = v.pipe(v.string(), v.trim(), v.maxLength(500));

export const DescriptionsFileSchema = v.object({
  table_metadata: v.record(
    v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
    v.pipe(
      v.array(
        v.object({
          column_name: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
          column_description: v.optional(v.nullable(Text)),
          data_type: v.optional(v.string()),
        }),
      ),
      v.maxLength(2000),
    ),
  ),
});
export type DescriptionsFile = v.InferOutput<typeof DescriptionsFileSchema>;

/** Stored with the database: `table` (bare or `schema.table`) → column → description. */
export type ColumnDescriptions = Record<string, Record<string, string>>;

/** The descriptions of a file, without empty ones. */
export const descriptionsOf = (file: DescriptionsFile): ColumnDescriptions => {
  const result: ColumnDescriptions = {};
  for (const [table, columns] of Object.entries(file.table_metadata)) {
    for (const column of columns) {
      const text = column.column_description?.trim();
      if (!text) continue;
      result[table] ??= {};
      result[table][column.column_name] = text;
    }
  }
  return result;
};

/** Parses a descriptions file's JSON text; throws valibot's error on a bad shape. */
export const parseDescriptions = (json: unknown): ColumnDescriptions =>
  descriptionsOf(v.parse(DescriptionsFileSchema, json));

/**
 * The catalog with the operator's descriptions applied (a new object; the catalog is shared):
 * a table is matched by `schema.name`, or by its bare name in any schema.
 */
export const withDescriptions = (catalog: Catalog, descriptions: ColumnDescriptions | undefined): Catalog => {
  if (!descriptions || Object.keys(descriptions).length === 0) return catalog;
  return {
    ...catalog,
    relations: catalog.relations.map((relation) => {
      const own =
        (Object.hasOwn(descriptions, `${relation.schema}.${relation.name}`)
          ? descriptions[`${relation.schema}.${relation.name}`]
          : undefined) ??
        (Object.hasOwn(descriptions, relation.name) ? descriptions[relation.name] : undefined);
      if (!own) return relation;
      return {
        ...relation,
        columns: relation.columns.map((column) =>
          Object.hasOwn(own, column.name) ? { ...column, description: own[column.name]! } : column,
        ),
      };
    }),
  };
};
