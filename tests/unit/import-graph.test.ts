// The layers by import (docs/design.md "Layers"): scripts/import-graph.ts reads the imports,
// finds cycles and arrows that run back up, and writes Biome's noRestrictedImports rules from the
// same ordered list; a planted violation fails Biome's lint.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  arrowsUpOf,
  biomeLayerOverrides,
  checkImportGraph,
  cyclesOf,
  type ImportGraph,
  importsOf,
  isLayerOverride,
  LAYERS,
  layerOf,
  readImportGraph,
  resolveSpecifier,
} from '../../scripts/import-graph.ts';

const root = join(import.meta.dirname, '..', '..');

describe('reading imports', () => {
  it('reads static, type-only, re-exported and literal dynamic imports', () => {
    const text = [
      "import { a } from '#lib/errors.ts';",
      "import type { B } from './b.ts';",
      "export { c } from '../c.ts';",
      "const d = () => import('./d.ts');",
      // A computed path is no edge of the graph.
      `const e = (name: string) => import(${'`'}./engines/${'$'}{name}.ts${'`'});`,
    ].join('\n');
    expect(importsOf(text)).toEqual(['#lib/errors.ts', './b.ts', '../c.ts', './d.ts']);
  });

  it('resolves the #lib alias and relative paths; packages are outside the graph', () => {
    expect(resolveSpecifier('lib/store/a.ts', '#lib/answer/chat.ts')).toBe('lib/answer/chat.ts');
    expect(resolveSpecifier('lib/store/a.ts', '../answer/chat.ts')).toBe('lib/answer/chat.ts');
    expect(resolveSpecifier('lib/store/a.ts', './client.ts')).toBe('lib/store/client.ts');
    expect(resolveSpecifier('lib/store/a.ts', 'valibot')).toBeUndefined();
  });

  it('places a file in the first layer naming it', () => {
    const name = (file: string) => LAYERS[layerOf(file)!]!.name;
    expect(name('lib/errors.ts')).toBe('ground');
    expect(name('lib/observability/metrics.ts')).toBe('ground');
    expect(name('lib/store/glossary.ts')).toBe('store');
    expect(name('lib/answer/builtin/index.ts')).toBe('answer');
    expect(name('functions/stream.ts')).toBe('functions');
    expect(layerOf('lib/somewhere-new.ts')).toBeUndefined();
  });
});

describe('cycles and arrows up', () => {
  const graph: ImportGraph = new Map([
    ['lib/store/a.ts', ['lib/store/b.ts', 'lib/errors.ts']],
    ['lib/store/b.ts', ['lib/store/c.ts']],
    ['lib/store/c.ts', ['lib/store/a.ts', 'lib/answer/x.ts']],
    ['lib/answer/x.ts', ['lib/store/a.ts']],
    ['lib/answer/y.ts', ['lib/answer/y.ts', 'lib/errors.ts']],
    ['lib/errors.ts', []],
  ]);

  it('finds each strongly connected component and a file importing itself', () => {
    expect(cyclesOf(graph)).toEqual([
      ['lib/answer/x.ts', 'lib/store/a.ts', 'lib/store/b.ts', 'lib/store/c.ts'],
      ['lib/answer/y.ts'],
    ]);
    expect(cyclesOf(new Map([['lib/errors.ts', []]]))).toEqual([]);
  });

  it('finds the imports of a higher layer, and only those', () => {
    expect(arrowsUpOf(graph)).toEqual([
      { from: 'lib/store/c.ts', to: 'lib/answer/x.ts', fromLayer: 'store', toLayer: 'answer' },
    ]);
  });

  it('fails on a cycle not listed, on a listed one that is gone, and over the budget', () => {
    const acyclic: ImportGraph = new Map([
      ['lib/store/a.ts', ['lib/answer/x.ts']],
      ['lib/answer/x.ts', []],
    ]);
    expect(checkImportGraph(acyclic, { budget: 1, known: [] }).passes).toBe(true);
    expect(checkImportGraph(acyclic, { budget: 0, known: [] }).passes).toBe(false);
    const stale = checkImportGraph(acyclic, { budget: 1, known: [['lib/store/a.ts', 'lib/store/b.ts']] });
    expect(stale.passes).toBe(false);
    expect(stale.staleKnownCycles).toEqual([['lib/store/a.ts', 'lib/store/b.ts']]);
    const cyclic = checkImportGraph(graph, { budget: 1, known: [['lib/answer/y.ts']] });
    expect(cyclic.passes).toBe(false);
    expect(cyclic.newCycles).toEqual([
      ['lib/answer/x.ts', 'lib/store/a.ts', 'lib/store/b.ts', 'lib/store/c.ts'],
    ]);
  });

  it('holds for the repository: every file in a layer, no new cycle, arrows up within the budget', () => {
    const report = checkImportGraph(readImportGraph(root));
    expect(report.unplaced).toEqual([]);
    expect(report.newCycles).toEqual([]);
    expect(report.staleKnownCycles).toEqual([]);
    expect(report.passes).toBe(true);
  });
});

describe("Biome's layer rules", () => {
  const biomeConfig = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'));

  it('are those of LAYERS (node scripts/import-graph.ts --write-biome)', () => {
    expect(biomeConfig.overrides.filter(isLayerOverride)).toEqual(biomeLayerOverrides());
  });

  // A copy of biome.json in a temporary folder, with one planted file at a time.
  const folder = mkdtempSync(join(tmpdir(), 'tabletalk-layers-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  copyFileSync(join(root, 'biome.json'), join(folder, 'biome.json'));
  const lint = (file: string, text: string) => {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), `${text}\n`);
    const biome = join(root, 'node_modules', '.bin', 'biome');
    const run = spawnSync(biome, ['lint', '--max-diagnostics=5', file], { cwd: folder, encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  };

  it.each([
    ['lib/store/planted.ts', "export { chat } from '#lib/answer/chat.ts';"],
    ['lib/store/relative.ts', "export type { Principal } from '../auth/principal.ts';"],
    ['lib/store/dynamic.ts', "export const load = () => import('../manage/jobs.ts');"],
    ['lib/observability/planted.ts', "export { documents } from '#lib/store/client.ts';"],
    ['lib/answer/planted.ts', "export { api } from '#lib/http/api.ts';"],
    ['functions/planted.ts', "export { main } from '../admin/main.ts';"],
  ])('fail the lint of %s importing a higher layer', (file, text) => {
    const { status, output } = lint(file, text);
    expect(status).not.toBe(0);
    expect(output).toContain('lint/style/noRestrictedImports');
  });

  it.each([
    ['lib/store/allowed.ts', "export { ServiceError } from '#lib/errors.ts';"],
    ['lib/answer/allowed.ts', "export { documents } from '#lib/store/client.ts';"],
    ['functions/allowed.ts', "export { api } from '#lib/http/api.ts';"],
  ])('pass the lint of %s importing its own layer or a lower one', (file, text) => {
    expect(lint(file, text)).toMatchObject({ status: 0 });
  });
});
