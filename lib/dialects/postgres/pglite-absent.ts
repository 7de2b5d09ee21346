// The embedded demo database in a stage that does not serve the demo: packaging puts this module
// in place of pglite.ts (infra/esbuild-plugins.cjs) when the stage's `embeddedDatabaseSeeds` is
// empty, so its zips carry no PGlite worker, .wasm or .data (docs/operator-guide.md "The demo
// stage"). A database registered with engine pglite fails to connect here as a connector whose
// module is missing does: DB_CONNECTION_FAILED, ENGINE_UNAVAILABLE.

import { redactorFor } from '#lib/connectors/errors.ts';
import type { Connector, ExecuteLimits, IntrospectOptions, QueryResult } from '#lib/connectors/types.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { connectionFailed } from './errors.ts';

const absent = (): Promise<never> =>
  Promise.reject(
    connectionFailed(
      Object.assign(new Error('the embedded database is not part of this stage'), {
        code: 'ERR_MODULE_NOT_FOUND',
      }),
      redactorFor(undefined),
    ),
  );

export class PgliteConnector implements Connector {
  readonly dialect = 'postgres' as const;

  test(): Promise<void> {
    return absent();
  }

  introspect(_options?: IntrospectOptions): Promise<Catalog> {
    return absent();
  }

  execute(_sql: string, _params: readonly unknown[], _limits: ExecuteLimits): Promise<QueryResult> {
    return absent();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
