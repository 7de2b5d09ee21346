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

/** A logo as an SVG badge: the demo's default logos (`ASSETS_URL` of the local stack). */
export const badgeLogo = (fill: string, text: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="28" viewBox="0 0 96 28"><rect width="96" height="28" rx="6" fill="${fill}"/><text x="48" y="19" font-family="sans-serif" font-size="14" font-weight="700" text-anchor="middle" fill="#fff">${escapeHtml(text)}</text></svg>`;

export const widgetPages = (options: DemoPageOptions): Record<string, StaticPage> => ({
  '/': { contentType: 'text/html; charset=utf-8', body: () => demoPage(options) },
  '/widget.js': { contentType: 'text/javascript; charset=utf-8', body: () => buildWidget() },
  '/logo.svg': { contentType: 'image/svg+xml', body: () => badgeLogo('#0f766e', 'tabletalk') },
  '/logo-dark.svg': { contentType: 'image/svg+xml', body: () => badgeLogo('#f59e0b', 'tabletalk') },
});
