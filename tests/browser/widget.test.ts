// The chat widget in a real browser (Debian's Chromium driven by playwright-core): the demo page
// served by the local gateway in this process (DynamoDB Local, the demo shop on PGlite, which
// filters rows by tenant, so the page holds no key: it gets an embed session for tenant 1 and
// scope visitor-1 from the demo backend route POST /demo/session, asked with the sk_ key on the
// server side), branding applied, a first answer and a follow-up streamed piece by piece, each
// with its table, the conversation kept across a reload, the dark scheme, and the whole flow with
// the keyboard only.
// SCREENSHOTS=1 also writes the PNGs of docs/screenshots/.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { saveBranding } from '#lib/store/branding.ts';
import { type RunningGateway, startGateway } from '../../local/gateway.ts';
import { environmentOf, loadServerlessConfig, routesOf } from '../../local/serverless-config.ts';
import { applyLocalEnvironment, LOCAL_STAGE, root } from '../../local/stack.ts';
import { badgeLogo, type DemoPageOptions, demoBackend, widgetPages } from '../../web/serve.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LAUNCH_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
const screenshots = process.env.SCREENSHOTS === '1' ? join(root, 'docs/screenshots') : undefined;

const BRANDING = {
  colors: {
    primary: '#0f766e',
    secondary: '#134e4a',
    accent: '#f59e0b',
    text_primary: '#0f172a',
    text_secondary: '#475569',
  },
  widget_theme: {
    position: 'bottom-right',
    greeting_message: 'Hi! Ask me about customers, products and orders.',
    placeholder_text: 'e.g. How many orders were delivered last year?',
    header_color: '#115e59',
  },
  hide_dialektai_branding: true,
} as const;

let gateway: RunningGateway;
let context: BrowserContext;
let userDataDir: string;
let databaseId: string;
let skKey: string;
/** A pk_ key of the scoped shop: the API refuses it, and the page never holds it. */
let pk: string;
// Loaded after the gateway installed the `awslambda` global the function needs at import.
let pacing: { pieceDelayMs: number; hold?: Promise<void> | undefined };

const rgb = (hex: string): string => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

/** A computed style of the element (evaluated in the page). */
const styleOf = (locator: Locator, property: string): Promise<string> =>
  locator.evaluate(
    (node, name) =>
      (
        globalThis as unknown as {
          getComputedStyle(n: unknown): { getPropertyValue(p: string): string };
        }
      )
        .getComputedStyle(node)
        .getPropertyValue(name),
    property,
  );

/** The text of whatever the locator matches now (no waiting: polled by expect.poll). */
const textOf = async (locator: Locator): Promise<string> => (await locator.allTextContents()).join('');

/** Whether the element has focus (inside the widget's shadow root too). */
const focused = (locator: Locator): Promise<boolean> =>
  locator.evaluate((node) => (node as unknown as { matches(s: string): boolean }).matches(':focus'));

const widget = (page: Page) => {
  const host = page.locator('#tabletalk-chat');
  return {
    root: host.locator('.root'),
    launcher: host.locator('.launcher'),
    panel: host.locator('.panel'),
    header: host.locator('.header'),
    logo: host.locator('.logo'),
    mark: host.locator('.mark'),
    input: host.locator('textarea'),
    send: host.locator('.composer button'),
    newConversation: host.locator('button.new'),
    messages: host.locator('.log .msg'),
    userMessages: host.locator('.log .msg.user'),
    answers: host.locator('.log .msg.assistant'),
    streaming: host.locator('.log .msg[aria-busy="true"] .text'),
    tables: host.locator('.log table'),
    log: host.locator('.log'),
  };
};

const openDemo = async (page: Page) => {
  await page.goto(`${gateway.url}/`);
  const w = widget(page);
  // The first page of a run waits for its embed session and branding on a cold gateway.
  await expect.poll(() => w.root.getAttribute('data-ready'), { timeout: 20_000 }).toBe('true');
  return w;
};

/** Holds the stream after its first piece until the returned release is called (then resets). */
const holdStream = (): (() => void) => {
  let open!: () => void;
  pacing.hold = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    open();
    pacing.hold = undefined;
  };
};

const shoot = async (page: Page, name: string) => {
  if (screenshots) await page.screenshot({ path: join(screenshots, `${name}.png`) });
};

describe('the chat widget in Chromium', () => {
  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(
        `Chromium not found at ${chromiumPath}: install Debian's chromium package (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
      );
    }
    const config = await loadServerlessConfig(root, LOCAL_STAGE);
    applyLocalEnvironment(environmentOf(config), {
      dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT ?? '',
      tableName: process.env.TABLE_NAME ?? '',
    });
    process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
    const acme = await makeOrganization('professional');
    const shop = await registerDatabase({ organizationId: acme.organization.id });
    databaseId = shop.id;
    skKey = acme.sk;
    pk = (await createApiKey({ organizationId: acme.organization.id, kind: 'pk', databaseId })).key;
    const demo: DemoPageOptions = {
      databaseId,
      session: { skKey, tenantId: '1', scopeId: 'visitor-1' },
    };
    gateway = await startGateway({
      root,
      routes: routesOf(config),
      actions: demoBackend(demo),
      pages: {
        ...widgetPages(demo),
        '/logo.svg': { contentType: 'image/svg+xml', body: () => badgeLogo('#0f766e', 'Demo Co') },
        '/logo-dark.svg': { contentType: 'image/svg+xml', body: () => badgeLogo('#f59e0b', 'Demo Co') },
      },
    });
    await saveBranding(acme.organization.id, {
      ...BRANDING,
      logo_url: `${gateway.url}/logo.svg`,
      logo_dark_url: `${gateway.url}/logo-dark.svg`,
    });
    ({ pacing } = await import('../../functions/stream.ts'));
    if (screenshots) mkdirSync(screenshots, { recursive: true });
    userDataDir = mkdtempSync(join(tmpdir(), 'tabletalk-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      args: LAUNCH_FLAGS,
      viewport: { width: 1100, height: 760 },
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await gateway?.close();
    await closeConnectors();
  });

  it('holds no key in the page: the widget asks with an embed session from the demo backend', async () => {
    // The page's source names the session route, never a key.
    const html = await (await fetch(`${gateway.url}/`)).text();
    expect(html).toContain('/demo/session');
    expect(html).not.toContain(skKey);
    expect(html).not.toContain(pk);
    expect(html).not.toMatch(/\b(?:sk|pk)_[A-Za-z0-9_-]{20,}/);
    // The pk_ key itself is refused on this database.
    const refused = await fetch(`${gateway.url}/api/v1/chat/message`, {
      method: 'POST',
      headers: { 'X-API-Key': pk, 'X-Tenant-Id': '1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'hello', database_id: databaseId }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { details: { code: string }[] }).details[0]?.code).toBe(
      'EMBED_SESSION_REQUIRED',
    );

    // In the browser, every API request carries the session token and no key or tenant header.
    const page = await context.newPage();
    const sent: Record<string, string>[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/')) sent.push(request.headers());
    });
    await openDemo(page);
    expect(sent.length).toBeGreaterThan(0);
    for (const headers of sent) {
      expect(headers.authorization).toMatch(/^Bearer et_/);
      expect(headers['x-api-key']).toBeUndefined();
      expect(headers['x-tenant-id']).toBeUndefined();
    }
    await page.close();
  });

  it('applies the branding: colors, header, logo, position, greeting, placeholder, no product mark', async () => {
    const page = await context.newPage();
    const w = await openDemo(page);
    await shoot(page, 'widget-closed');
    await expect.poll(() => w.panel.isVisible()).toBe(false);
    expect(await styleOf(w.launcher, 'background-color')).toBe(rgb(BRANDING.colors.primary));
    expect(await styleOf(w.root, 'right')).toBe('20px');
    expect(await styleOf(w.root, 'bottom')).toBe('20px');

    await w.launcher.click();
    await expect.poll(() => w.panel.isVisible()).toBe(true);
    expect(await styleOf(w.header, 'background-color')).toBe(rgb(BRANDING.widget_theme.header_color));
    await expect.poll(() => textOf(w.answers.first())).toBe(BRANDING.widget_theme.greeting_message);
    await expect.poll(() => w.input.getAttribute('placeholder')).toBe(BRANDING.widget_theme.placeholder_text);
    await expect.poll(() => w.logo.getAttribute('src')).toBe(`${gateway.url}/logo.svg`);
    await expect.poll(() => w.logo.isVisible()).toBe(true);
    await expect.poll(() => w.mark.isVisible()).toBe(false);
    // The branding's text colour reads well on the light surface, so it is used as is.
    expect(await styleOf(w.answers.first(), 'color')).toBe(rgb(BRANDING.colors.text_primary));
    await page.close();
  });

  it('streams the first answer and a follow-up, each with its table, and keeps the conversation across a reload', async () => {
    const page = await context.newPage();
    const w = await openDemo(page);
    await w.launcher.click();

    // The first question creates the conversation and streams too; its answer ends with the rows.
    // The stream holds after each piece until the test has looked (a busy machine may otherwise
    // deliver the whole answer between two looks).
    let release = holdStream();
    try {
      await w.input.fill('revenue per category');
      await w.input.press('Enter');
      await expect.poll(() => textOf(w.streaming), { timeout: 20_000 }).not.toBe('');
      expect(await w.tables.count()).toBe(0);
    } finally {
      release();
    }
    await expect.poll(() => w.tables.count(), { timeout: 20_000 }).toBe(1);
    const table = w.tables.first();
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(1);
    // The category names are text (left), the revenue figures numbers (right-aligned).
    expect(await table.locator('th.num').count()).toBeGreaterThanOrEqual(1);
    expect(await table.locator('th:not(.num)').count()).toBeGreaterThanOrEqual(1);
    expect(await styleOf(table.locator('td.num').first(), 'text-align')).toBe('right');
    await expect.poll(() => textOf(w.log.locator('.count').first())).toMatch(/^\d+ rows$/);
    await shoot(page, 'widget-table');

    // A follow-up streams: partial text is on screen while the answer is still being written.
    release = holdStream();
    try {
      await w.input.fill('top 5 customers by revenue');
      await w.input.press('Enter');
      await expect.poll(() => textOf(w.streaming), { timeout: 20_000 }).not.toBe('');
      const partial = (await w.streaming.textContent()) ?? '';
      await shoot(page, 'widget-streaming');
      release();
      await expect.poll(() => w.streaming.count(), { timeout: 30_000 }).toBe(0);
      const final = (await w.answers.last().locator('.text').textContent()) ?? '';
      expect(partial.length).toBeGreaterThan(0);
      expect(final.length).toBeGreaterThan(partial.length);
      expect(final.startsWith(partial)).toBe(true);
    } finally {
      release();
    }
    // The follow-up's rows came with its `done` event.
    await expect.poll(() => w.tables.count()).toBe(2);
    await shoot(page, 'widget-open');
    const conversationId = await page.evaluate(
      (key) =>
        (
          JSON.parse(
            (globalThis as unknown as { localStorage: { getItem(k: string): string } }).localStorage.getItem(
              key,
            ),
          ) as { conversationId: string }
        ).conversationId,
      `tabletalk:conversation:${databaseId}:1:visitor-1`,
    );

    // After a reload the transcript (with its table) is back, and the next question continues
    // the same conversation on the server.
    await page.reload();
    await expect.poll(() => w.root.getAttribute('data-ready')).toBe('true');
    await w.launcher.click();
    await expect.poll(() => w.userMessages.count()).toBe(2);
    await expect.poll(() => w.tables.count()).toBe(2);
    await w.input.fill('How many orders were placed in 2025?');
    await w.input.press('Enter');
    await expect.poll(() => w.answers.count(), { timeout: 20_000 }).toBe(4);
    await expect.poll(() => textOf(w.answers.last())).toMatch(/orders/);
    const history = await fetch(`${gateway.url}/api/v1/chat/${conversationId}/history`, {
      // The server reads its visitor's conversations with the visitor's own scope and tenant.
      headers: { 'X-API-Key': skKey, 'X-Scope-Id': 'visitor-1', 'X-Tenant-Id': '1' },
    });
    expect(history.status).toBe(200);
    const { data } = (await history.json()) as { data: { messages: { role: string; content: string }[] } };
    expect(data.messages.map((m) => m.role)).toEqual([
      'USER',
      'ASSISTANT',
      'USER',
      'ASSISTANT',
      'USER',
      'ASSISTANT',
    ]);

    // "New conversation" forgets it: only the greeting is left.
    await w.newConversation.click();
    await expect.poll(() => w.messages.count()).toBe(1);
    await page.close();
  });

  it('draws a time series as a line and categories as bars, offers follow-ups and takes a rating', async () => {
    const page = await context.newPage();
    const w = await openDemo(page);
    await w.launcher.click();
    const host = page.locator('#tabletalk-chat');

    // A time series: one point per row, in a line chart with a title and axis labels.
    await w.input.fill('revenue per month in 2025');
    await w.input.press('Enter');
    await expect.poll(() => host.locator('svg.chart').count(), { timeout: 30_000 }).toBe(1);
    const line = host.locator('svg.chart').last();
    expect(await line.getAttribute('data-kind')).toBe('line');
    const months = await host.locator('.log table').last().locator('tbody tr').count();
    expect(months).toBeGreaterThan(2);
    expect(await line.locator('circle').count()).toBe(months);
    expect(await line.locator('polyline').count()).toBe(1);
    expect(await line.locator('title').first().textContent()).not.toBe('');
    expect(await line.getAttribute('role')).toBe('img');
    expect(await line.locator('text.title').count()).toBe(2);
    // The rows stay one click away as a table.
    expect(await host.locator('details.table-toggle').count()).toBe(1);
    await shoot(page, 'widget-chart-line');

    // Categories: one bar per row.
    await w.input.fill('revenue per category');
    await w.input.press('Enter');
    await expect.poll(() => host.locator('svg.chart').count(), { timeout: 30_000 }).toBe(2);
    const bars = host.locator('svg.chart').last();
    expect(await bars.getAttribute('data-kind')).toBe('bar');
    const categories = await host.locator('.log table').last().locator('tbody tr').count();
    expect(await bars.locator('rect').count()).toBe(categories);
    await shoot(page, 'widget-chart-bar');

    // Follow-up questions as buttons: one asks its question.
    const suggestions = host.locator('.suggestions button');
    await expect.poll(() => suggestions.count()).toBeGreaterThan(0);
    const before = await w.answers.count();
    const suggestion = (await suggestions.first().textContent()) ?? '';
    await suggestions.first().click();
    await expect.poll(() => w.answers.count(), { timeout: 30_000 }).toBe(before + 1);
    await expect.poll(() => textOf(w.userMessages.last())).toBe(suggestion);

    // A thumbs-up is stored on the answer.
    const up = w.answers.last().locator('.rating button').first();
    await up.click();
    await expect.poll(() => up.getAttribute('aria-pressed')).toBe('true');

    // Leave no conversation behind for the next test of this browser profile.
    await w.newConversation.click();
    await expect.poll(() => w.messages.count()).toBe(1);
    await page.close();
  });

  it('follows the dark scheme: dark logo, dark surface, readable text instead of the dark brand text', async () => {
    const page = await context.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    const w = await openDemo(page);
    await w.launcher.click();
    await expect.poll(() => w.logo.getAttribute('src')).toBe(`${gateway.url}/logo-dark.svg`);
    expect(await styleOf(w.panel, 'background-color')).toBe(rgb('#111827'));
    // #0f172a on the dark surface fails contrast: the widget falls back to light text.
    expect(await styleOf(w.answers.first(), 'color')).not.toBe(rgb(BRANDING.colors.text_primary));
    expect(await styleOf(w.answers.first(), 'color')).toBe(rgb('#ffffff'));
    await w.input.fill('orders per status');
    await w.input.press('Enter');
    await expect.poll(() => w.tables.count(), { timeout: 20_000 }).toBe(1);
    await shoot(page, 'widget-dark');
    await w.newConversation.click();
    await page.close();
  });

  it('works with the keyboard only', async () => {
    const page = await context.newPage();
    const w = await openDemo(page);
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(w.launcher)).toBe(true);
    await expect.poll(() => w.launcher.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    await expect.poll(() => w.panel.isVisible()).toBe(true);
    await expect.poll(() => focused(w.input)).toBe(true);
    await expect.poll(() => w.launcher.getAttribute('aria-expanded')).toBe('true');

    await page.keyboard.type('How many customers are there?');
    await page.keyboard.press('Enter');
    await expect.poll(() => w.answers.count(), { timeout: 20_000 }).toBe(2);
    // The streamed answer is complete (its element is replaced by the finished one).
    await expect.poll(() => w.streaming.count(), { timeout: 20_000 }).toBe(0);
    // A single value (the count) is in the text: no table for it.
    expect(await w.tables.count()).toBe(0);
    await expect.poll(() => focused(w.input)).toBe(true);
    await expect.poll(() => w.log.getAttribute('aria-live')).toBe('polite');

    // Shift+Tab walks back through the answer's buttons (follow-ups, rating) and the conversation
    // log to the header's buttons.
    const host = page.locator('#tabletalk-chat');
    const controls = await host.locator('.log button').count();
    expect(controls).toBeGreaterThan(0);
    for (let i = 0; i < controls; i++) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focused(w.log)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focused(w.newConversation)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => w.messages.count()).toBe(1);
    await expect.poll(() => focused(w.input)).toBe(true);

    // Escape closes the chat and gives focus back to the launcher.
    await page.keyboard.press('Escape');
    await expect.poll(() => w.panel.isVisible()).toBe(false);
    await expect.poll(() => focused(w.launcher)).toBe(true);
    await page.close();
  });
});
