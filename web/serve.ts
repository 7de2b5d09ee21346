// The widget's files for the local gateway (local/gateway.ts `pages`): `/` is the demo page
// (web/demo.html with a database key, database and tenant filled in) and `/widget.js` the
// script, built in memory by esbuild on each request, so `npm start` always serves the current
// source and a fresh clone needs no build step.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { StaticPage } from '../local/gateway.ts';
import { buildWidget } from './build.ts';

const here = dirname(new URL(import.meta.url).pathname);

export interface DemoPageOptions {
  apiKey: string;
  databaseId: string;
  tenantId?: string;
  scopeId?: string;
  /** Passed to Tabletalk.create; the script's origin when absent. */
  baseUrl?: string;
  open?: boolean;
}

/** JSON safe inside an inline <script> (no `</script>` or `<!--` can close it early). */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value, null, 2)
    .replace(/</g, '\\u003c')
    .replace(/\u2028|\u2029/g, '');

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const demoPage = (options: DemoPageOptions): string =>
  readFileSync(join(here, 'demo.html'), 'utf8')
    .replace(
      '<script id="tabletalk-options" type="application/json">{}</script>',
      `<script id="tabletalk-options" type="application/json">${scriptJson(options)}</script>`,
    )
    .replace('{{TENANT_ID}}', escapeHtml(options.tenantId ?? 'none'));

export const widgetPages = (options: DemoPageOptions): Record<string, StaticPage> => ({
  '/': { contentType: 'text/html; charset=utf-8', body: () => demoPage(options) },
  '/widget.js': { contentType: 'text/javascript; charset=utf-8', body: () => buildWidget() },
});
