// The API reference page (/docs) in a real browser (Debian's Chromium driven by playwright-core),
// served by the openapi function through the local gateway: Redoc renders the document the API
// serves beside the page (operations, schemas, search), and the page asks nothing of any other
// host (no CDN, no fonts, no telemetry).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway } from '../helpers/gateway.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let context: BrowserContext;
let userDataDir: string;

beforeAll(async () => {
  if (!existsSync(chromiumPath))
    throw new Error(
      `Chromium not found at ${chromiumPath}: install Debian's chromium package (.ci/run does) or set CHROMIUM_PATH`,
    );
  gateway = await startTestGateway();
  userDataDir = mkdtempSync(join(tmpdir(), 'tabletalk-docs-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    viewport: { width: 1280, height: 900 },
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await gateway?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

describe('/docs in Chromium', () => {
  it('renders the served document with Redoc and asks no other host for anything', async () => {
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const blocked: string[] = [];
    page.on('requestfailed', (request) => {
      // Chromium's reason for a request the page's Content-Security-Policy refused.
      if (request.failure()?.errorText === 'csp') blocked.push(request.url());
    });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy'))
        refused.push(message.text());
    });

    const response = await page.goto(`${gateway.url}/docs`);
    expect(response?.status()).toBe(200);

    // Operations by their summaries, a schema, and the search box.
    await page
      .locator('h2', { hasText: 'Stream an answer (server-sent events)' })
      .waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.locator('h2', { hasText: 'Create an embed session for the widget' }).count())
      .toBe(1);
    await expect.poll(() => page.locator('input[placeholder="Search..."]').count()).toBe(1);
    await page.locator('input[placeholder="Search..."]').fill('glossary');
    await expect
      .poll(() => page.locator('[data-role="search:results"] [aria-label="Replace the glossary"]').count())
      .toBe(1);

    expect(requested).toContain(`${gateway.url}/api/v1/openapi.json`);
    const elsewhere = requested.filter(
      (url) => !url.startsWith(`${gateway.url}/`) && !url.startsWith(`blob:${gateway.url}/`),
    );
    // Asked for by the renderer, refused by the page's policy before anything left the browser.
    expect(elsewhere).toEqual(blocked);
    expect(elsewhere.every((url) => url === 'https://cdn.redoc.ly/redoc/logo-mini.svg')).toBe(true);
    expect(problems).toEqual([]);
    // Nothing else the page needs is refused by it.
    expect(refused.filter((text) => !text.includes('https://cdn.redoc.ly/redoc/logo-mini.svg'))).toEqual([]);
    if (process.env.SCREENSHOTS === '1')
      await page.screenshot({ path: join(tmpdir(), 'tabletalk-docs.png') });
    await page.close();
  }, 60_000);
});
