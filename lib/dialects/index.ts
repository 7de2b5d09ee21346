// The registry of SQL dialects (docs/design.md "Databases as one seam"): one line per dialect.
// What differs by dialect is read from here — the engines a database record may name (the
// management API's and the OpenAPI document's picklists, the admin command's), their URL
// schemes, a catalog's dialect — and its machinery by the same name (lib/dialects/machinery.ts).
// A new dialect is its folder, one line below and its corpus of attacks and queries (tests/corpus/).
import { ServiceError } from '#lib/errors.ts';
import { mysql } from './mysql/index.ts';
import { postgres } from './postgres/index.ts';
import type { Dialect, DialectEngine } from './types.ts';

export const DIALECTS: readonly Dialect[] = [postgres, mysql];

/** Every engine, with the dialect it speaks. */
const ENGINES: readonly { engine: DialectEngine; dialect: Dialect }[] = DIALECTS.flatMap((dialect) =>
  dialect.engines.map((engine) => ({ engine, dialect })),
);

const namesOf = (embedded: boolean): string[] =>
  ENGINES.filter(({ engine }) => engine.embedded === embedded).map(({ engine }) => engine.name);

/** Engines reached by URL: the management API's `engine` (embedded engines are the admin command's). */
export const SERVER_ENGINE_NAMES = namesOf(false) as [string, ...string[]];

/** Engines embedded in the service, loaded from a seed file (the admin command's `--seed`). */
export const EMBEDDED_ENGINE_NAMES = namesOf(true);

/** Every engine's name, servers first (the admin command's `--engine`, a stored database's engine). */
export const ENGINE_NAMES = [...SERVER_ENGINE_NAMES, ...EMBEDDED_ENGINE_NAMES] as [string, ...string[]];

/**
 * The API's example of a connection URL: the first server engine's in full, the others' by scheme
 * (the management API's `connection.url`).
 */
export const EXAMPLE_URLS = ENGINES.filter(({ engine }) => !engine.embedded)
  .map(({ engine }, index) => (index === 0 ? engine.exampleUrl : `${engine.urlSchemes[0]}//…`))
  .join(', or ');

/** Every URL scheme of every engine, with its colon. */
export const URL_SCHEMES: readonly string[] = ENGINES.flatMap(({ engine }) => engine.urlSchemes);

const unknown = (what: string, name: string): ServiceError =>
  new ServiceError('INTERNAL', { message: `No ${what} is named ${JSON.stringify(name)}` });

/** The dialect of a catalog (`Catalog.dialect`). */
export const dialectNamed = (name: string): Dialect => {
  const dialect = DIALECTS.find((candidate) => candidate.name === name);
  if (!dialect) throw unknown('dialect', name);
  return dialect;
};

/** An engine of a database record (`DatabaseRecord.engine`) and the dialect it speaks. */
export const engineNamed = (name: string): { engine: DialectEngine; dialect: Dialect } => {
  const found = ENGINES.find(({ engine }) => engine.name === name);
  if (!found) throw unknown('engine', name);
  return found;
};
