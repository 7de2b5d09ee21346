// Bundles the chat widget (web/src/widget.ts) into one minified script with esbuild.
// `npm run build:widget` writes web/dist/widget.js (what a deployed stage uploads, see docs/widget.md
// "Serving the script"); `npm start` and the tests build it in memory on demand (web/serve.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const here = dirname(new URL(import.meta.url).pathname);
export const widgetEntry = join(here, 'src/widget.ts');
export const widgetOutput = join(here, 'dist/widget.js');

/** The widget as one script (an IIFE that defines window.Tabletalk and <tabletalk-chat>). */
export const buildWidget = async (options: { minify?: boolean } = {}): Promise<string> => {
  const result = await build({
    entryPoints: [widgetEntry],
    bundle: true,
    write: false,
    format: 'iife',
    target: ['es2022', 'chrome100', 'firefox100', 'safari15.4'],
    minify: options.minify ?? true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output for the widget');
  return file.text;
};

if (import.meta.filename === process.argv[1]) {
  const code = await buildWidget();
  mkdirSync(dirname(widgetOutput), { recursive: true });
  writeFileSync(widgetOutput, code);
  console.log(`${widgetOutput} (${code.length.toLocaleString('en-US')} bytes)`);
}
