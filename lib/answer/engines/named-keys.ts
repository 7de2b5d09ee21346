// Keys a database does not declare, read by the model engines' linking (linking.ts): a column
// named after another relation's own key (`assigned_tech_id` → the relation whose key is
// `tech_id`), and a column whose description names another relation's key ("Fee earner
// (fee_earners.id) who approved the bill"). The builtin engine's own inferred keys
// (lib/answer/builtin/keys.ts) are added beside these by linking.ts.
import type { Catalog, CatalogRelation } from '#lib/core/catalog.ts';
import type { Edge } from '../builtin/types.ts';
import { perCatalog, relationKey } from './word-links.ts';

/**
 * Keys the database does not declare, read from a column named after another relation's own
 * key: `assigned_tech_id` (or `tech_id`) refers to the relation whose primary key is `tech_id`.
 */
export const keysByName = (catalog: Catalog, tenantColumn: string | undefined): Edge[] => {
  const owners = new Map<string, CatalogRelation[]>();
  for (const relation of catalog.relations) {
    const [key, ...more] = relation.primaryKey;
    if (!key || more.length > 0 || key === 'id' || key === tenantColumn || !/_id$/i.test(key)) continue;
    owners.set(key.toLowerCase(), [...(owners.get(key.toLowerCase()) ?? []), relation]);
  }
  const edges: Edge[] = [];
  for (const relation of catalog.relations) {
    for (const column of relation.columns) {
      const name = column.name.toLowerCase();
      for (const [key, parents] of owners) {
        if (parents.length !== 1 || !(name === key || name.endsWith(`_${key}`))) continue;
        const parent = parents[0]!;
        if (parent === relation) continue;
        edges.push({
          child: relationKey(relation),
          parent: relationKey(parent),
          childColumns: [column.name],
          parentColumns: [parent.primaryKey[0]!],
          inferred: true,
        });
      }
    }
  }
  return edges;
};

/**
 * Keys a column's description names: "Fee earner (fee_earners.id) who approved the bill" makes
 * `billing_fe_id` refer to `fee_earners`' primary key `id`.
 */
export const keysByDescription = perCatalog((catalog, tenantColumn): Edge[] => {
  const byName = new Map<string, CatalogRelation>();
  for (const relation of catalog.relations) byName.set(relation.name.toLowerCase(), relation);
  const edges: Edge[] = [];
  for (const relation of catalog.relations) {
    for (const column of relation.columns) {
      if (column.name === tenantColumn || !column.description) continue;
      const declared = relation.foreignKeys.some((key) => key.columns.includes(column.name));
      if (declared) continue;
      for (const [, table, key] of column.description.matchAll(
        /\b([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\b/g,
      )) {
        const parent = byName.get(table!.toLowerCase());
        if (!parent || parent === relation || parent.primaryKey.length !== 1) continue;
        if (parent.primaryKey[0]!.toLowerCase() !== key!.toLowerCase()) continue;
        edges.push({
          child: relationKey(relation),
          parent: relationKey(parent),
          childColumns: [column.name],
          parentColumns: [parent.primaryKey[0]!],
          inferred: true,
        });
        break;
      }
    }
  }
  return edges;
});
