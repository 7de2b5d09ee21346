// Step 2 of the builtin pipeline, revenue: what "revenue" and "sales" add up in this schema, in
// tiers (a money column named revenue or sales, one named total, quantity × price in one row,
// quantity × the price of the row it points at), and the words people say for it.
import { quantityWords } from './columns.ts';
import type { ColumnRef, Measure } from './intent.ts';
import type { ColumnInfo, Edge, RelationInfo, Resolution } from './types.ts';

export const resolution = <T>(values: T[]): Resolution<T> =>
  values.length === 1
    ? { kind: 'one', value: values[0]! }
    : values.length === 0
      ? { kind: 'none' }
      : { kind: 'many', values };

/**
 * What "revenue" and "sales" add up, as tiers tried in order (the first tier that can answer a
 * question is used; two candidates in one tier are an ambiguity): a money column named revenue or
 * sales, a money column named total, quantity × price in one row, quantity × the price of the row
 * it points at. Tables come before views, so that every question computes revenue the same way
 * unless only a view can answer it.
 */
export const findRevenue = (
  relations: Map<string, RelationInfo>,
  edges: Map<string, Edge[]>,
): { tiers: Measure[][]; unitsSold: Resolution<ColumnRef> } => {
  const ref = (column: ColumnInfo): ColumnRef => ({ table: column.table, column: column.name });
  const tiersOf = (pool: RelationInfo[]) => {
    const all = pool.flatMap((relation) => relation.columns);
    const named = all.filter(
      (column) =>
        column.money && column.words.some((word) => /^(revenue|sales?|turnover|income)$/.test(word)),
    );
    const totals = all.filter((column) => column.money && column.words.includes('total'));
    const quantities = all.filter(
      (column) =>
        column.numeric && column.kind !== 'decimal' && column.words.some((word) => quantityWords.has(word)),
    );
    const priceOf = (relation: RelationInfo | undefined) =>
      relation?.columns.filter((column) => column.money && column.words.includes('price')) ?? [];
    const sameRow: Measure[] = [];
    const parentRow: Measure[] = [];
    for (const quantity of quantities) {
      for (const price of priceOf(relations.get(quantity.table))) {
        sameRow.push({ kind: 'product', left: ref(quantity), right: ref(price) });
      }
      for (const edge of edges.get(quantity.table) ?? []) {
        if (edge.child !== quantity.table) continue;
        for (const price of priceOf(relations.get(edge.parent))) {
          parentRow.push({ kind: 'product', left: ref(quantity), right: ref(price) });
        }
      }
    }
    const columnMeasures = (columns: ColumnInfo[]): Measure[] =>
      columns.map((column) => ({ kind: 'column', ref: ref(column) }));
    return {
      tiers: [columnMeasures(named), columnMeasures(totals), sameRow.length > 0 ? sameRow : parentRow],
      lines: [...sameRow, ...parentRow].flatMap((measure) =>
        measure.kind === 'product' ? [measure.left] : [],
      ),
      quantities: quantities.map(ref),
    };
  };
  const isTable = (relation: RelationInfo) =>
    relation.relation.kind === 'table' || relation.relation.kind === 'foreign_table';
  const tables = tiersOf([...relations.values()].filter(isTable));
  const others = tiersOf([...relations.values()].filter((relation) => !isTable(relation)));
  const tiers = [...tables.tiers, ...others.tiers].filter((tier) => tier.length > 0);
  const lines = [...tables.lines, ...others.lines];
  const unique = [...new Map(lines.map((line) => [`${line.table}.${line.column}`, line])).values()];
  return { tiers, unitsSold: resolution(unique.length > 0 ? unique : tables.quantities) };
};

export const revenuePhrases = ['revenue', 'sale', 'turnover', 'income', 'gross sale', 'takings', 'earnings'];
/** How people say money taken in ("total spend per customer", "billed in 2024"): revenue, unless a
 *  column of the schema answers to the word. */
export const spokenRevenuePhrases = [
  'spend',
  'spending',
  'spent',
  'money',
  'billed',
  'charged',
  'invoiced',
  'earned',
];
