// Keys a database does not declare (docs/design.md "Answering on unseen databases": joins where
// the database declares no foreign keys). Many real schemas, and every database of the external
// set, declare no primary or foreign keys; the engine then infers them from names and types:
//   - a primary key: `id`, the relation's own `<name>_id` / `<name>id`, or `<initial>id`
//     (author.aid, publication.pid), else a first column `<x>_name` that no other relation owns
//     by name (geographic.city_name);
//   - a foreign key: a column named like another relation's single-column key (writes.aid →
//     author.aid, review.business_id → business.business_id), or `<relation>_id` when that
//     relation's key is `id` (location.restaurant_id → restaurant.id), or a `<x>_name` column of
//     the relation named x or of the one relation that has it as its key.
// Inferred keys are marked (`inferred`). A relation that declares foreign keys keeps its own, and
// beside them only a `<relation>_id` column no declared key covers is inferred, to a relation
// whose key is `id`: declared keys are preferred whenever there are any.
import type { Catalog, CatalogColumn, CatalogRelation, ForeignKey } from '#lib/core/catalog.ts';
import { singular, splitIdentifier } from './words.ts';

export interface InferredForeignKey extends ForeignKey {
  inferred: true;
}

export interface InferredKeys {
  /** By `schema.name`: the inferred primary key of a relation that declares none. */
  primaryKeys: Map<string, string[]>;
  /** By `schema.name`: inferred foreign keys of a relation that declares none. */
  foreignKeys: Map<string, InferredForeignKey[]>;
}

const keyOf = (relation: CatalogRelation): string => `${relation.schema}.${relation.name}`;

/** The relation's name as one lower-case word, singular: order_items → orderitem. */
const compact = (name: string): string => splitIdentifier(name).map(singular).join('');

/** Whether a column name reads as an identifier: id, x_id, xId, aid (two or three letters + id). */
export const idLike = (name: string): boolean =>
  /(^|_)id$/i.test(name) || /[a-z]Id$/.test(name) || /^[a-z]{1,2}id$/i.test(name);

const joinable = (a: CatalogColumn, b: CatalogColumn): boolean =>
  a.kind === b.kind || (['integer', 'decimal'].includes(a.kind) && ['integer', 'decimal'].includes(b.kind));

const ownPrimaryKey = (relation: CatalogRelation, tenantColumn: string | undefined): string[] | undefined => {
  const columns = relation.columns.filter((column) => column.name !== tenantColumn);
  const names = new Map(columns.map((column) => [column.name.toLowerCase(), column.name]));
  if (names.has('id')) return [names.get('id')!];
  const own = compact(relation.name);
  for (const candidate of [`${own}_id`, `${own}id`, `${splitIdentifier(relation.name).join('_')}_id`]) {
    const found = columns.find(
      (column) => column.name.toLowerCase().replaceAll('_', '') === candidate.replaceAll('_', ''),
    );
    if (found) return [found.name];
  }
  if (!relation.name.includes('_')) {
    const initial = relation.name[0]?.toLowerCase() ?? '';
    const short = columns.find(
      (column) => column.name.toLowerCase() === `${initial}id` && column.kind !== 'text',
    );
    if (short) return [short.name];
  }
  return undefined;
};

export const inferKeys = (catalog: Catalog, tenantColumn?: string): InferredKeys => {
  const relations = catalog.relations.filter((relation) => relation.kind !== 'sequence');
  const primaryKeys = new Map<string, string[]>();
  const keyColumns = (relation: CatalogRelation): string[] =>
    relation.primaryKey.length > 0 ? relation.primaryKey : (primaryKeys.get(keyOf(relation)) ?? []);

  for (const relation of relations) {
    if (relation.primaryKey.length > 0) continue;
    const own = ownPrimaryKey(relation, tenantColumn);
    if (own) primaryKeys.set(keyOf(relation), own);
  }
  // A natural key: a first column `<x>_name` (city_name of geographic) when no relation named x
  // exists to own it and no other relation has it first.
  for (const relation of relations) {
    if (relation.primaryKey.length > 0 || primaryKeys.has(keyOf(relation))) continue;
    const first = relation.columns.find((column) => column.name !== tenantColumn);
    const match = first && first.kind === 'text' ? /^(.+)_name$/i.exec(first.name) : null;
    if (!first || !match) continue;
    // (A relation named x is this one when x is its own name: state.state_name is its key.)
    const named = relations.some((other) => other !== relation && compact(other.name) === compact(match[1]!));
    const rivals = relations.filter(
      (other) =>
        other !== relation &&
        other.columns.find((column) => column.name !== tenantColumn)?.name === first.name,
    );
    if (!named && rivals.length === 0) primaryKeys.set(keyOf(relation), [first.name]);
  }

  // Owners of single-column keys, by the key column's name (author.aid), and relations by name.
  const byKeyName = new Map<string, CatalogRelation[]>();
  for (const relation of relations) {
    const key = keyColumns(relation);
    if (key.length !== 1 || key[0]!.toLowerCase() === 'id') continue;
    const list = byKeyName.get(key[0]!.toLowerCase()) ?? [];
    list.push(relation);
    byKeyName.set(key[0]!.toLowerCase(), list);
  }
  const byName = new Map<string, CatalogRelation[]>();
  for (const relation of relations) {
    const list = byName.get(compact(relation.name)) ?? [];
    list.push(relation);
    byName.set(compact(relation.name), list);
  }

  const foreignKeys = new Map<string, InferredForeignKey[]>();
  for (const relation of relations) {
    // A relation that declares foreign keys keeps them; of its other columns only a
    // `<relation>_id` naming a relation whose key is `id` is a reference (shipments.truck_id →
    // trucks.id beside its declared shipper_id).
    const declares = relation.foreignKeys.length > 0;
    const declared = new Set(relation.foreignKeys.flatMap((foreignKey) => foreignKey.columns));
    const ownKey = keyColumns(relation);
    const found: InferredForeignKey[] = [];
    for (const column of relation.columns) {
      if (column.name === tenantColumn || declared.has(column.name)) continue;
      if (declares && !/_id$/i.test(column.name)) continue;
      // A relation's own single key is not a reference (a link table's columns are: its key is
      // not inferred as one of them).
      if (ownKey.length === 1 && ownKey[0] === column.name) continue;
      const lower = column.name.toLowerCase();
      let owner: { relation: CatalogRelation; column: string } | undefined;
      const owners = (byKeyName.get(lower) ?? []).filter((other) => other !== relation);
      if (owners.length === 1 && !declares)
        owner = { relation: owners[0]!, column: keyColumns(owners[0]!)[0]! };
      const prefix = /^(.+?)_?(id|name)$/i.exec(column.name);
      if (!owner && prefix) {
        const named = (byName.get(compact(prefix[1]!)) ?? []).filter((other) => other !== relation);
        if (named.length === 1) {
          const target = named[0]!;
          const key = keyColumns(target);
          const wanted =
            prefix[2]!.toLowerCase() === 'id'
              ? key[0]
              : target.columns.find((c) => c.name.toLowerCase() === lower)?.name;
          if (
            wanted &&
            (prefix[2]!.toLowerCase() !== 'id' || key.length === 1) &&
            (!declares || wanted.toLowerCase() === 'id')
          )
            owner = { relation: target, column: wanted };
        }
      }
      if (!owner) continue;
      const target = owner.relation.columns.find((candidate) => candidate.name === owner.column);
      if (!target || !joinable(column, target)) continue;
      found.push({
        columns: [column.name],
        references: { schema: owner.relation.schema, name: owner.relation.name, columns: [owner.column] },
        inferred: true,
      });
    }
    if (found.length > 0) foreignKeys.set(keyOf(relation), found);
  }
  return { primaryKeys, foreignKeys };
};
