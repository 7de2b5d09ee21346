// The human-readable API reference at /docs: Redoc (the `redoc` package's standalone bundle,
// searchable, with every operation, schema and example) rendering the OpenAPI document that the
// API serves beside it. The page carries the renderer inline and loads nothing from elsewhere:
// no CDN, no fonts; only the document, from the same base address as the page itself.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Where the standalone renderer is: node_modules locally, the same path in the function's zip (serverless.yml). */
export const RENDERER_MODULE = 'redoc/bundles/redoc.standalone.js';

/**
 * A script's text made safe to inline in `<script>`: a `</script` or `<!--` inside it (in a
 * string or a regular expression) would end or change the element; `<\/` means the same in JS.
 */
const inlineScript = (source: string): string =>
  source.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

/** The renderer's source, read from the package. */
export const rendererSource = (): string =>
  readFileSync(createRequire(import.meta.url).resolve(RENDERER_MODULE), 'utf8');

// The document's address from the page's: `<base>/docs` → `<base>/api/v1/openapi.json`, so the
// page works under a stage's path (`/prod/docs`) and on the local stack (`/docs`) alike.
const start = `
const base = location.pathname.replace(/\\/docs\\/?$/, '/');
Redoc.init(base + 'api/v1/openapi.json', {
  expandResponses: '200,201',
  hideHostname: false,
  jsonSampleExpandLevel: 2,
  theme: { typography: { fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif', headings: { fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif' } } },
}, document.getElementById('reference'));
`;

const hashOf = (script: string): string => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/**
 * What the page may load, enforced by the browser: its two scripts (by hash), the document and
 * images from its own origin, the search worker Redoc starts from a blob. The renderer's footer
 * logo on Redocly's CDN is refused (the image then hides itself).
 */
const contentSecurityPolicy = (scripts: string[]): string =>
  [
    "default-src 'none'",
    `script-src ${scripts.map(hashOf).join(' ')}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

/** The /docs page: the renderer inline, started on the document served beside the page. */
export const referencePage = (renderer: string = rendererSource()): string => {
  const scripts = [inlineScript(renderer), start];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(scripts)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tabletalk API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>
</head>
<body>
<noscript>The API reference needs JavaScript. The OpenAPI document itself is at <a href="api/v1/openapi.json">api/v1/openapi.json</a>.</noscript>
<div id="reference"></div>
<script>${scripts[0]}</script>
<script>${scripts[1]}</script>
</body>
</html>
`;
};
