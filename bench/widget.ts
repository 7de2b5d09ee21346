// (l) The chat widget's script: its size as a page downloads it (esbuild, minified, gzip -9),
// against the 30 KB gzipped budget of docs/design.md "Targets".
import { gzipSync } from 'node:zlib';
import { buildWidget } from '../web/build.ts';
import { type Figure, fixed, kb, printFigure, type Section, table } from './common.ts';

export const WIDGET_GZIP_TARGET_BYTES = 30_000;

export const measureWidget = async (): Promise<Section> => {
  const started = performance.now();
  const code = await buildWidget({ minify: true });
  const buildMs = performance.now() - started;
  const minified = Buffer.byteLength(code);
  const gzipped = gzipSync(code, { level: 9 }).length;
  const figure: Figure = {
    name: '(l) widget.js gzipped',
    measured: `${kb(gzipped)} gzip (${kb(minified)} minified, ${fixed((gzipped / WIDGET_GZIP_TARGET_BYTES) * 100, 0)} % of budget)`,
    target: `≤ ${kb(WIDGET_GZIP_TARGET_BYTES)}`,
    pass: gzipped <= WIDGET_GZIP_TARGET_BYTES,
  };
  printFigure(figure);
  const markdown = `## (l) Chat widget script

\`web/build.ts\` bundles \`web/src/widget.ts\` with esbuild (IIFE, minified, no framework); the
output is gzipped in memory with zlib level 9, as a CDN or the browser's transfer would compress it.

${table(
  ['Script', 'Minified', 'gzip -9', 'Budget (gzip)', 'Build time'],
  [
    [
      'widget.js',
      `${minified.toLocaleString('en-US')} B`,
      `${gzipped.toLocaleString('en-US')} B (${kb(gzipped)})`,
      kb(WIDGET_GZIP_TARGET_BYTES),
      `${fixed(buildMs, 0)} ms`,
    ],
  ],
)}
`;
  return { figures: [figure], markdown };
};
