// The schema index of a database as the answering flow uses it, kept per warm container: the
// full catalog (what the guard checks against) and the engine's view of it, filtered to the
// relations the row policy lets the guard read (relationAccess ≠ refused), so an engine never
// proposes a query the guard must refuse (lib/answer/engine.ts `EngineInput.catalog`).
// An index version never changes once written (lib/store/schema-index.ts), so the cache key is
// the database id, the version and the policy; a re-index or a policy change is a new key.
import type { Catalog } from '#lib/core/catalog.ts';
import { type EffectivePolicy, effectivePolicy, relationAccess } from '#lib/core/row-policy.ts';
import { dialectNamed } from '#lib/dialects/index.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { type Glossary, isEmptyGlossary, readGlossary } from '#lib/store/glossary.ts';
import { readSchemaIndex } from '#lib/store/schema-index.ts';
import { TtlCache } from '#lib/ttl-cache.ts';

export interface AnswerCatalog {
  /** The whole index: the guard resolves every name against it. */
  full: Catalog;
  /** What the engine is shown: only relations the guard may read for this policy. */
  visible: Catalog;
  policy: EffectivePolicy;
}

/** Catalogs are immutable per version; a few databases per container is the common case. */
const MAX_ENTRIES = 16;
const cache = new Map<string, Promise<AnswerCatalog | undefined>>();

/** The engine's view: relations the policy leaves readable (filtered, shared or open). */
export const visibleCatalog = (catalog: Catalog, policy: EffectivePolicy): Catalog => ({
  ...catalog,
  relations: catalog.relations.filter(
    (relation) =>
      relationAccess(catalog, policy, relation.schema, relation.name, dialectNamed(catalog.dialect)).kind !==
      'refused',
  ),
});

/**
 * An index sampled under another row policy than the database's (the control plane changed it;
 * the re-index is queued): its sampled values may be one tenant's under the new policy, so it is
 * used without them until the re-index publishes (docs/control-plane.md "Changing a database").
 */
const samplesUnder = (catalog: Catalog, database: DatabaseRecord, policy: EffectivePolicy): Catalog => {
  const sampledUnder = database.schemaIndex?.policyKey;
  if (sampledUnder === undefined || sampledUnder === JSON.stringify(policy)) return catalog;
  return { ...catalog, relations: catalog.relations.map((relation) => ({ ...relation, samples: {} })) };
};

const keyOf = (database: DatabaseRecord): string | undefined =>
  database.schemaIndex
    ? `${database.id}#${database.schemaIndex.version}#${JSON.stringify(effectivePolicy(database))}`
    : undefined;

/**
 * The database's catalog for answering; undefined when it has no (readable) schema index.
 * Reads the index from DynamoDB once per version and container.
 */
export const answerCatalogOf = (
  database: DatabaseRecord,
  read: typeof readSchemaIndex = readSchemaIndex,
): Promise<AnswerCatalog | undefined> => {
  const key = keyOf(database);
  if (key === undefined) return Promise.resolve(undefined);
  const cached = cache.get(key);
  if (cached) {
    // Most recently used last, so the oldest entry is the first to go.
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const loading = (async () => {
    const stored = await read(database);
    if (!stored) return undefined;
    const policy = effectivePolicy(database);
    const full = samplesUnder(stored, database, policy);
    return { full, visible: visibleCatalog(full, policy), policy };
  })();
  cache.set(key, loading);
  // Neither a failed read nor a missing index is kept: the next request reads again.
  loading.then(
    (catalog) => {
      if (!catalog && cache.get(key) === loading) cache.delete(key);
    },
    () => {
      if (cache.get(key) === loading) cache.delete(key);
    },
  );
  while (cache.size > MAX_ENTRIES) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
  }
  return loading;
};

/**
 * The database's glossary for answering (lib/store/glossary.ts), kept per container for a minute:
 * a saved change reaches the container that saved it at once (`forgetAnswerGlossary`) and every
 * other within 60 s. Undefined when it has none.
 */
const glossaries = new TtlCache<string, Promise<Glossary | undefined>>(60_000, 256);
export const answerGlossaryOf = (
  databaseId: string,
  read: (id: string) => Promise<Glossary> = readGlossary,
): Promise<Glossary | undefined> => {
  const cached = glossaries.get(databaseId);
  if (cached) return cached;
  // A glossary that cannot be read does not cost the answer: it answers without one, and the
  // next request reads again.
  const loading = read(databaseId).then(
    (glossary) => (isEmptyGlossary(glossary) ? undefined : glossary),
    () => {
      glossaries.delete(databaseId);
      return undefined;
    },
  );
  glossaries.set(databaseId, loading);
  return loading;
};

/**
 * Forgets a database's glossary in this container: a change saved here (PUT …/glossary, a
 * deleted database) is read by the next answer here; other containers see it within 60 s.
 */
export const forgetAnswerGlossary = (databaseId: string): void => {
  glossaries.delete(databaseId);
};

/** Tests: forget cached catalogs. */
export const clearAnswerCatalogs = (): void => {
  cache.clear();
  glossaries.clear();
};
