// The widget's files for the local gateway (local/gateway.ts `pages`): `/` is the demo page
// (web/demo.html with the database and tenant filled in, its icon `/favicon.svg`) and `/widget.js` the script, built in
// memory by esbuild on each request, so `npm start` always serves the current source and a fresh
// clone needs no build step. On a database that filters rows by tenant the page holds no key: it
// gets an embed session from `POST /demo/session` (local/gateway.ts `actions`), the demo's
// stand-in for an integrator's backend, which asks for it with the organization's sk_ key
// server-side (docs/widget.md "Embed sessions").
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createEmbedSession } from '#lib/auth/embed-sessions.ts';
import { authorise, resolvePrincipal } from '#lib/auth/principal.ts';
import { errorEnvelope, toServiceError } from '#lib/errors.ts';
import type { PageAction, StaticPage } from '../local/gateway.ts';
import { buildWidget } from './build.ts';

const here = dirname(new URL(import.meta.url).pathname);

/** The demo backend's embed session: whom its (only) visitor is, and the key it asks with. */
export interface DemoSession {
  /** The organization's sk_ key: used by `POST /demo/session` only, never written into the page. */
  skKey: string;
  tenantId?: string;
  scopeId?: string;
  ttlSeconds?: number;
}

export interface DemoPageOptions {
  databaseId: string;
  /** A database (pk_) key, for a database without scoping: the page then holds it. */
  apiKey?: string;
  /** Or an embed session from `POST /demo/session` (the page gets `sessionUrl`, not the key). */
  session?: DemoSession;
  tenantId?: string;
  scopeId?: string;
  /** Passed to Tabletalk.create; the script's origin when absent. */
  baseUrl?: string;
  open?: boolean;
}

export const DEMO_SESSION_PATH = '/demo/session';

/** What the page's script is given: never the session's sk_ key. */
const pageOptions = ({ session, ...options }: DemoPageOptions) =>
  session ? { ...options, tenantId: undefined, scopeId: undefined, sessionUrl: DEMO_SESSION_PATH } : options;

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
      `<script id="tabletalk-options" type="application/json">${scriptJson(pageOptions(options))}</script>`,
    )
    .replace('{{TENANT_ID}}', escapeHtml(options.session?.tenantId ?? options.tenantId ?? 'none'));

/** A logo as an SVG badge: the demo's default logos (`ASSETS_URL` of the local stack). */
export const badgeLogo = (fill: string, text: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="28" viewBox="0 0 96 28"><rect width="96" height="28" rx="6" fill="${fill}"/><text x="48" y="19" font-family="sans-serif" font-size="14" font-weight="700" text-anchor="middle" fill="#fff">${escapeHtml(text)}</text></svg>`;

/** The demo page's icon: a speech bubble over a table, in the demo's colours. */
export const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0f766e"/><path d="M7 8h18a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H14l-5 4v-4H7a2 2 0 0 1-2-2V10a2 2 0 0 1 2-2z" fill="#fff"/><path d="M9 13h14M9 17h14M16 10v10" stroke="#0f766e" stroke-width="1.5"/></svg>';

export const widgetPages = (options: DemoPageOptions): Record<string, StaticPage> => ({
  '/': { contentType: 'text/html; charset=utf-8', body: () => demoPage(options) },
  '/widget.js': { contentType: 'text/javascript; charset=utf-8', body: () => buildWidget() },
  '/favicon.svg': { contentType: 'image/svg+xml', body: () => FAVICON },
  // Browsers that ask for /favicon.ico before reading the page's <link rel="icon"> get the same.
  '/favicon.ico': { contentType: 'image/svg+xml', body: () => FAVICON },
  '/logo.svg': { contentType: 'image/svg+xml', body: () => badgeLogo('#0f766e', 'tabletalk') },
  '/logo-dark.svg': { contentType: 'image/svg+xml', body: () => badgeLogo('#f59e0b', 'tabletalk') },
});

/**
 * `POST /demo/session`: what an integrator's backend does once it has signed its user in (the
 * demo's one visitor is always signed in): ask tabletalk for an embed session with its sk_ key,
 * through the same rules as `POST /api/v1/embed/sessions`, and hand the page only the token.
 */
export const demoBackend = (options: DemoPageOptions): Record<string, PageAction> => {
  const { session } = options;
  if (!session) return {};
  return {
    [DEMO_SESSION_PATH]: async () => {
      try {
        const principal = await resolvePrincipal({ apiKey: session.skKey });
        authorise(principal, { credentials: ['sk', 'jwt'] });
        const created = await createEmbedSession(principal, {
          database_id: options.databaseId,
          ...(session.tenantId === undefined ? {} : { tenant_id: session.tenantId }),
          ...(session.scopeId === undefined ? {} : { scope_id: session.scopeId }),
          ttl_seconds: session.ttlSeconds ?? 900,
        });
        return { status: 201, body: { success: true, data: created } };
      } catch (error) {
        const envelope = errorEnvelope(toServiceError(error), `req_${randomUUID()}`);
        return { status: envelope.status_code, body: envelope };
      }
    },
  };
};
