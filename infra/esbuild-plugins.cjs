// esbuild plugins for serverless-esbuild (`custom.esbuild.plugins` in serverless.yml).
//
// Chunks beside their bundle: with `splitting`, what a function loads only on demand (the SQL
// guards' parsers, the PostgreSQL and MySQL drivers, the model engines) goes to chunk files
// instead of the .mjs that Lambda imports at cold start. serverless-esbuild builds each function
// on its own into one shared folder and zips every file of it into every function, except files
// named after another function's bundle (`<bundle>.*`, as for `.map`). So each build writes its
// chunks under `<bundle>.chunks/`: they land in that function's zip only.
//
// libpg-query wasm: the PostgreSQL parser of the SQL guard (lib/sql/postgres-parser.ts) is
// emscripten output that reads `libpg-query.wasm` from `__dirname` at run time. The banner
// defines __dirname as the folder of each output file (import.meta.dirname), so the .wasm must
// sit beside the output file (bundle or chunk) that holds the parser's loader: in that chunk's
// folder, or, for a parser inside the bundle itself, in that function's own part of the build
// folder (`__only_<function>/`, which serverless-esbuild zips into that function only, with the
// prefix removed). Either way the answering functions get it and no other zip grows by its 1.7 MB.
'use strict';

const { copyFileSync, mkdirSync } = require('node:fs');
const { basename, dirname, join, relative, resolve } = require('node:path');

const ONLY_PREFIX = '__only_';
const WASM = 'libpg-query.wasm';
const PARSER_LOADER = /(^|[\\/])libpg-query[\\/]wasm[\\/]libpg-query\.js$/;

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

const wasmBesideParser = (serverless) => ({
  name: 'libpg-query-wasm',
  setup(build) {
    const options = build.initialOptions;
    const servicePath = serviceDirOf(serverless);
    const source = require.resolve(`libpg-query/wasm/${WASM}`, { paths: [servicePath] });
    // Which output holds the parser's loader is read from the metafile.
    options.metafile = true;
    build.onEnd((result) => {
      const entry = entryOf(options);
      if (result.errors.length > 0 || !result.metafile || !entry || !options.outdir) return;
      const loaderOutputs = Object.entries(result.metafile.outputs)
        .filter(([, output]) => Object.keys(output.inputs).some((input) => PARSER_LOADER.test(input)))
        .map(([file]) => resolve(servicePath, file));
      if (loaderOutputs.length === 0) return;
      // serverless-esbuild builds `<entry>` into `<build dir>/<dirname(entry)>`.
      const relativeEntry = relative(servicePath, resolve(servicePath, entry));
      const buildDir = resolve(options.outdir, relative(dirname(relativeEntry), '.'));
      for (const output of loaderOutputs) {
        // A chunk folder (`<bundle>.chunks/`) is zipped with its function only, and it is where
        // `serverless offline` runs the code from: the .wasm goes right beside the chunk.
        if (basename(dirname(output)).endsWith('.chunks')) {
          copyFileSync(source, join(dirname(output), WASM));
          continue;
        }
        for (const name of functionsOf(serverless, relativeEntry)) {
          const target = join(buildDir, `${ONLY_PREFIX}${name}`, relative(buildDir, dirname(output)), WASM);
          mkdirSync(dirname(target), { recursive: true });
          copyFileSync(source, target);
        }
      }
    });
  },
});

module.exports = (serverless) => [chunksBesideBundle(serverless), wasmBesideParser(serverless)];
