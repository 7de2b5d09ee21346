// Each dialect's machinery (drivers, parsers), loaded by the dialect's name from its folder
// (lib/dialects/<name>/machinery.ts) by the code that connects, guards or reads parse trees. It
// is kept apart from the registry (lib/dialects/index.ts) so that what only names engines
// (picklists, the row policy's system schemas) does not bundle drivers and parsers: the import
// below names every folder's machinery at once, and each becomes a chunk of its own.

import type { Connector } from '#lib/connectors/types.ts';
import type { Guard } from '#lib/sql/types.ts';
import { dialectNamed, engineNamed } from './index.ts';
import type { PgNode as FragmentNode } from './postgres/parser.ts';
import type { ConnectOptions, DialectMachinery, EgressReading } from './types.ts';

export type { FragmentNode };

const loaded = new Map<string, Promise<DialectMachinery>>();

/** The machinery of a registered dialect, imported once. */
export const machineryOf = (dialect: string): Promise<DialectMachinery> => {
  const { name } = dialectNamed(dialect);
  let machinery = loaded.get(name);
  if (!machinery) {
    machinery = import(`./${name}/machinery.ts`).then(
      (module: { machinery: DialectMachinery }) => module.machinery,
    );
    loaded.set(name, machinery);
  }
  return machinery;
};

/**
 * The grammar an operator's glossary fragments are read with, whatever the database's dialect
 * (docs/databases.md "Glossary"): PostgreSQL's, loaded on first use. Its trees are printed for
 * each dialect by lib/answer/builtin/glossary-expr.ts.
 */
export const loadFragmentParser = async (): Promise<(sql: string) => FragmentNode[]> => {
  const parser = await import('./postgres/parser.ts');
  await parser.loadPostgresParser();
  return parser.parseStatements;
};

/** The guard of a catalog's dialect, loaded on first use: each parser is heavy, and a function needs one. */
export const guardOf = async (dialect: string): Promise<Guard> => (await machineryOf(dialect)).guard();

/** What the egress rules read of a dialect's parse trees. */
export const egressOf = async (dialect: string): Promise<EgressReading> =>
  (await machineryOf(dialect)).egress();

/** Opens a connector on an engine of a database record (nothing connects before the first call). */
export const connectEngine = async (engine: string, options: ConnectOptions): Promise<Connector> => {
  const { dialect } = engineNamed(engine);
  return (await machineryOf(dialect.name)).connect(engine, options);
};
