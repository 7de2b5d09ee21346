// The import graph of the service's code (lib/, functions/, admin/): each file is placed in one
// layer of LAYERS, and the graph is checked for what docs/design.md "Layers" forbids:
//   - a cycle: files that import each other, directly or around a ring (strongly connected
//     components of more than one file, or a file importing itself);
//   - an arrow up: a file of a lower layer importing a file of a higher one.
// Every import counts: static, `import type`, `export … from` and `import('…')` with a literal
// path (TypeScript's own pre-processor reads them); relative paths and the `#lib/*` alias of
// package.json resolve to files; packages are outside the graph.
//
//   node scripts/import-graph.ts            print the figures; exit 1 on a cycle KNOWN_CYCLES does
//                                           not list (or an entry there that is gone), on more
//                                           arrows up than ARROWS_UP_BUDGET, or on a file in no
//                                           layer (run by `npm run lint`, so by CI)
//   node scripts/import-graph.ts --list     also list every known cycle and arrow up
//   node scripts/import-graph.ts --write-biome   rewrite biome.json's layer rules from LAYERS
//
// Biome's noRestrictedImports (biome.json) enforces the same order on each file as it is edited:
// its layer rules are written from LAYERS (`--write-biome`; tests/unit/import-graph.test.ts fails
// when they differ). This script is the count over the whole graph, and the one place the order
// is declared.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * The layers, lowest first. A file belongs to the first layer with a prefix it starts with; a
 * file may import its own layer and any layer below it. A prefix ending in `/` is a folder.
 */
export const LAYERS: readonly { readonly name: string; readonly prefixes: readonly string[] }[] = [
  {
    name: 'ground',
    prefixes: [
      'lib/errors.ts',
      'lib/config.ts',
      'lib/log.ts',
      'lib/ids.ts',
      'lib/params.ts',
      'lib/ttl-cache.ts',
      'lib/secrets-provider.ts',
      'lib/stream/',
      'lib/core/',
      'lib/observability/',
    ],
  },
  { name: 'store', prefixes: ['lib/store/'] },
  { name: 'databases', prefixes: ['lib/sql/', 'lib/connectors/', 'lib/dialects/'] },
  { name: 'access', prefixes: ['lib/auth/', 'lib/limits/', 'lib/conversations/'] },
  { name: 'answer', prefixes: ['lib/answer/'] },
  { name: 'manage', prefixes: ['lib/manage/'] },
  { name: 'http', prefixes: ['lib/http/'] },
  { name: 'routes', prefixes: ['lib/routes/'] },
  { name: 'openapi', prefixes: ['lib/openapi/'] },
  { name: 'functions', prefixes: ['functions/'] },
  { name: 'admin', prefixes: ['admin/'] },
];

/**
 * The most arrows up the graph may hold (docs/design.md "Layers"): none since the catalog and the
 * row policy moved to lib/core/. Never raise it.
 */
export const ARROWS_UP_BUDGET = 0;

/**
 * Cycles still to be taken apart (docs/design.md "Layers"), each as its sorted files: the check
 * fails on any other cycle, and on an entry here that is no longer a cycle, so the list only
 * shrinks, to empty.
 */
export const KNOWN_CYCLES: readonly (readonly string[])[] = [];

/** The folders whose files make the graph, relative to the repository's root. */
export const ROOTS = ['lib', 'functions', 'admin'] as const;

/** The index of a file's layer in LAYERS, or undefined for a file no layer names. */
export const layerOf = (file: string): number | undefined => {
  const index = LAYERS.findIndex((layer) => layer.prefixes.some((prefix) => file.startsWith(prefix)));
  return index === -1 ? undefined : index;
};

/** Each file (repository-relative, `/`-separated) and the files of the graph it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const sourceFiles = (root: string, folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();

/** The file an import specifier names, or undefined for a package. */
export const resolveSpecifier = (from: string, specifier: string): string | undefined => {
  if (specifier.startsWith('#lib/')) return posix.normalize(`lib/${specifier.slice('#lib/'.length)}`);
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    return posix.normalize(posix.join(posix.dirname(from), specifier));
  }
  return undefined;
};

/** The specifiers a source text imports (static, type-only, re-exports, literal dynamic imports). */
export const importsOf = (text: string): string[] =>
  ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);

/** Reads the graph of the ROOTS under a repository root. Imports of files outside the graph are dropped. */
export const readImportGraph = (root: string, roots: readonly string[] = ROOTS): ImportGraph => {
  const files = roots.flatMap((folder) => sourceFiles(root, folder));
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const targets = importsOf(readFileSync(join(root, file), 'utf8'))
        .map((specifier) => resolveSpecifier(file, specifier))
        .filter((target): target is string => target !== undefined && known.has(target));
      return [file, [...new Set(targets)].sort()];
    }),
  );
};

/**
 * The cycles: each strongly connected component of more than one file (or a file that imports
 * itself), its files sorted (Tarjan's algorithm, iterative so deep graphs cannot overflow).
 */
export const cyclesOf = (graph: ImportGraph): string[][] => {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { file: string; next: number }[] = [{ file: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.file) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) === index.get(frame.file)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.file);
        const selfImport = (graph.get(frame.file) ?? []).includes(frame.file);
        if (component.length > 1 || selfImport) components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
};

/** One import that runs from a lower layer to a higher one. */
export interface ArrowUp {
  readonly from: string;
  readonly to: string;
  readonly fromLayer: string;
  readonly toLayer: string;
}

/** The arrows up: imports whose target's layer is above the importer's. */
export const arrowsUpOf = (graph: ImportGraph): ArrowUp[] =>
  [...graph].flatMap(([from, targets]) => {
    const fromIndex = layerOf(from);
    return targets.flatMap((to) => {
      const toIndex = layerOf(to);
      if (fromIndex === undefined || toIndex === undefined || toIndex <= fromIndex) return [];
      return [{ from, to, fromLayer: LAYERS[fromIndex]!.name, toLayer: LAYERS[toIndex]!.name }];
    });
  });

/** Files no layer names (each must be placed in LAYERS, or the graph has a hole). */
export const unplacedOf = (graph: ImportGraph): string[] =>
  [...graph.keys()].filter((file) => layerOf(file) === undefined);

export interface GraphReport {
  readonly files: number;
  readonly imports: number;
  readonly cycles: string[][];
  /** Cycles KNOWN_CYCLES does not list: any one fails the check. */
  readonly newCycles: string[][];
  /** Entries of KNOWN_CYCLES that are no longer cycles: remove them (fails the check). */
  readonly staleKnownCycles: (readonly string[])[];
  readonly arrowsUp: ArrowUp[];
  readonly unplaced: string[];
  readonly passes: boolean;
}

const sameFiles = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((file, i) => file === b[i]);

export const checkImportGraph = (
  graph: ImportGraph,
  { budget = ARROWS_UP_BUDGET, known = KNOWN_CYCLES } = {},
): GraphReport => {
  const cycles = cyclesOf(graph);
  const newCycles = cycles.filter((cycle) => !known.some((entry) => sameFiles(entry, cycle)));
  const staleKnownCycles = known.filter((entry) => !cycles.some((cycle) => sameFiles(entry, cycle)));
  const arrowsUp = arrowsUpOf(graph);
  const unplaced = unplacedOf(graph);
  return {
    files: graph.size,
    imports: [...graph.values()].reduce((sum, targets) => sum + targets.length, 0),
    cycles,
    newCycles,
    staleKnownCycles,
    arrowsUp,
    unplaced,
    passes:
      newCycles.length === 0 &&
      staleKnownCycles.length === 0 &&
      arrowsUp.length <= budget &&
      unplaced.length === 0,
  };
};

// ---- Biome's noRestrictedImports, from the same LAYERS -------------------------------------------

const BIOME_FILE = 'biome.json';

/** The import specifiers that reach a folder of the graph: the `#lib/*` alias and relative paths. */
const groupsOf = (prefix: string): string[] => {
  const folder = prefix.replace(/\/$/, '');
  const name = folder.split('/').at(-1)!;
  return folder.startsWith('lib/') ? [`#${folder}/**`, `**/${name}/**`] : [`**/${name}/**`];
};

/** The globs of a layer's files, for an override's `includes`. */
const includesOf = (prefixes: readonly string[]): string[] =>
  prefixes.map((prefix) => (prefix.endsWith('/') ? `${prefix}**` : prefix));

/**
 * One override per layer but the top one: its files may not import a folder of any layer above
 * it. The error catalogue keeps its own stricter rule (it imports nothing of lib/), so the ground
 * layer's override leaves it out.
 */
export const biomeLayerOverrides = (): object[] =>
  LAYERS.slice(0, -1).map((layer, index) => {
    const above = LAYERS.slice(index + 1);
    const folders = above.flatMap((higher) => higher.prefixes.filter((prefix) => prefix.endsWith('/')));
    const names = above.map((higher) => higher.name).join(', ');
    return {
      includes: includesOf(layer.prefixes.filter((prefix) => prefix !== 'lib/errors.ts')),
      linter: {
        rules: {
          style: {
            noRestrictedImports: {
              level: 'error',
              options: {
                patterns: [
                  {
                    group: folders.flatMap(groupsOf),
                    message: `Layer "${layer.name}" imports only its own layer and those below it, never ${names} (docs/design.md "Layers"; the order is LAYERS in scripts/import-graph.ts).`,
                  },
                ],
              },
            },
          },
        },
      },
    };
  });

interface BiomeOverride {
  includes?: string[];
  linter?: { rules?: { style?: { noRestrictedImports?: unknown } } };
}

/** Whether an override of biome.json is one of the layers' (the error catalogue's own is not). */
export const isLayerOverride = (override: BiomeOverride): boolean =>
  override.linter?.rules?.style?.noRestrictedImports !== undefined &&
  !(override.includes?.length === 1 && override.includes[0] === 'lib/errors.ts');

/** biome.json with its layer overrides replaced by those of LAYERS, after every other override. */
export const biomeConfigWithLayers = (config: { overrides?: BiomeOverride[] }): object => ({
  ...config,
  overrides: [...(config.overrides ?? []).filter((o) => !isLayerOverride(o)), ...biomeLayerOverrides()],
});

const main = (): void => {
  const root = join(dirname(import.meta.filename), '..');
  if (process.argv.includes('--write-biome')) {
    const path = join(root, BIOME_FILE);
    const config = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, `${JSON.stringify(biomeConfigWithLayers(config), null, 2)}\n`);
    console.log(`${BIOME_FILE}: the layer rules rewritten from LAYERS (run npm run format to format it)`);
    return;
  }
  const report = checkImportGraph(readImportGraph(root));
  const list = process.argv.includes('--list');
  const known = report.cycles.length - report.newCycles.length;
  const lines = [
    `import graph: ${report.files} files, ${report.imports} imports; ` +
      `${report.cycles.length} cycles (${known} known, still to be taken apart), ` +
      `${report.arrowsUp.length} arrows up (budget ${ARROWS_UP_BUDGET})`,
    ...report.newCycles.map((cycle) => `cycle: ${cycle.join(' <-> ')}`),
    ...(list
      ? report.cycles
          .filter((c) => !report.newCycles.includes(c))
          .map((c) => `known cycle: ${c.join(' <-> ')}`)
      : []),
    ...report.staleKnownCycles.map(
      (cycle) =>
        `no longer a cycle: ${cycle.join(', ')} (remove it from KNOWN_CYCLES in scripts/import-graph.ts)`,
    ),
    ...(list || report.arrowsUp.length > ARROWS_UP_BUDGET
      ? report.arrowsUp.map((a) => `arrow up: ${a.from} (${a.fromLayer}) -> ${a.to} (${a.toLayer})`)
      : []),
    ...report.unplaced.map((file) => `in no layer: ${file} (add it to LAYERS in scripts/import-graph.ts)`),
  ];
  console.log(lines.join('\n'));
  if (!report.passes) process.exitCode = 1;
};

if (process.argv[1] === import.meta.filename) main();
