// The chat widget's layout in a real browser (Debian's Chromium driven by playwright-core), on the
// demo page served by the local gateway in this process, at a desktop (1280 px) and a phone
// (375 px) width, and its header at 320 px. Measured, not looked at: every text of every chart
// (tick labels, turned category labels, axis titles) is taken as the quadrilateral the browser
// draws it in (its box, through its transform) and no two may intersect or leave the drawing;
// the header's logo, title and buttons may not overlap and the title is not cut. Answers from the
// demo shop (revenue per category, revenue per month) and charts kept in the transcript with
// extreme values (twenty long labels, billions, negative values, 36 months) are checked alike.
// Also: axes named from the reading, full labels on hover and on focus, table numbers written as
// the text writes them, no key column beside a name, a favicon (no 404), and suggestions that
// continue the answer. Screenshots of each state are kept in tests/browser/artifacts/ (ignored
// by git; CI keeps them as artifacts).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveBranding } from '#lib/store/branding.ts';
import { type RunningGateway, startGateway } from '../../local/gateway.ts';
import { environmentOf, loadServerlessConfig, routesOf } from '../../local/serverless-config.ts';
import { applyLocalEnvironment, LOCAL_STAGE, root } from '../../local/stack.ts';
import { type DemoPageOptions, demoBackend, widgetPages } from '../../web/serve.ts';
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
const artifacts = join(root, 'tests/browser/artifacts');

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 740 },
] as const;

let gateway: RunningGateway;
let context: BrowserContext;
let userDataDir: string;
let databaseId: string;
const storageKey = () => `tabletalk:conversation:${databaseId}:1:visitor-1`;

type Point = { x: number; y: number };
/** What the page's evaluate callbacks read of an element (no DOM library in this project). */
interface Element {
  scrollWidth: number;
  clientWidth: number;
  scrollTop: number;
  offsetParent: unknown;
  className: string;
  children: ArrayLike<Element>;
  getBoundingClientRect(): { toJSON(): unknown };
}
type Rect = { x: number; y: number; width: number; height: number; left: number; right: number };
interface TextBox {
  text: string;
  corners: Point[];
}

/** Each text of the element's charts as the four corners it is drawn in, in page pixels. */
const chartTexts = (chart: Locator): Promise<{ texts: TextBox[]; frame: Rect }> =>
  chart.evaluate((node) => {
    // The few DOM types read here, spelt out (this project's TypeScript has no DOM library).
    type Matrix = unknown;
    interface SvgText {
      textContent: string | null;
      getBBox(): { x: number; y: number; width: number; height: number };
      getScreenCTM(): Matrix | null;
    }
    const svg = node as unknown as {
      querySelectorAll(selector: string): Iterable<SvgText>;
      getBoundingClientRect(): { toJSON(): unknown };
    };
    const { DOMPoint } = globalThis as unknown as {
      DOMPoint: new (x: number, y: number) => { matrixTransform(matrix?: Matrix): Point };
    };
    const texts = [...svg.querySelectorAll('text')].map((text) => {
      const box = text.getBBox();
      const matrix = text.getScreenCTM();
      const corner = (x: number, y: number) => {
        const point = new DOMPoint(x, y).matrixTransform(matrix ?? undefined);
        return { x: point.x, y: point.y };
      };
      return {
        text: text.textContent ?? '',
        corners: [
          corner(box.x, box.y),
          corner(box.x + box.width, box.y),
          corner(box.x + box.width, box.y + box.height),
          corner(box.x, box.y + box.height),
        ],
      };
    });
    return { texts, frame: svg.getBoundingClientRect().toJSON() as Rect };
  });

/** Whether two convex quadrilaterals overlap by more than `slack` px (separating axis test). */
const overlap = (a: Point[], b: Point[], slack = 0.5): boolean => {
  for (const shape of [a, b]) {
    for (let i = 0; i < shape.length; i++) {
      const p = shape[i]!;
      const q = shape[(i + 1) % shape.length]!;
      const axis = { x: q.y - p.y, y: p.x - q.x };
      const length = Math.hypot(axis.x, axis.y) || 1;
      const project = (points: Point[]) =>
        points.map((point) => (point.x * axis.x + point.y * axis.y) / length);
      const [pa, pb] = [project(a), project(b)];
      if (Math.max(...pa) - slack <= Math.min(...pb) || Math.max(...pb) - slack <= Math.min(...pa))
        return false;
    }
  }
  return true;
};

/** Every pair of texts of every chart in the log is apart, and each text inside its chart. */
const expectChartsLaidOut = async (page: Page, where: string): Promise<number> => {
  const charts = page.locator('#tabletalk-chat svg.chart');
  const count = await charts.count();
  for (let index = 0; index < count; index++) {
    const { texts, frame } = await chartTexts(charts.nth(index));
    expect(texts.length, where).toBeGreaterThan(3);
    for (const [i, a] of texts.entries()) {
      for (const corner of a.corners) {
        expect(corner.x, `${where}: "${a.text}" left of the chart`).toBeGreaterThanOrEqual(frame.x - 0.5);
        expect(corner.x, `${where}: "${a.text}" right of the chart`).toBeLessThanOrEqual(
          frame.x + frame.width + 0.5,
        );
        expect(corner.y, `${where}: "${a.text}" above the chart`).toBeGreaterThanOrEqual(frame.y - 0.5);
        expect(corner.y, `${where}: "${a.text}" below the chart`).toBeLessThanOrEqual(
          frame.y + frame.height + 0.5,
        );
      }
      for (const b of texts.slice(i + 1)) {
        expect(
          overlap(a.corners, b.corners),
          `${where}: chart ${index}: "${a.text}" overlaps "${b.text}"`,
        ).toBe(false);
      }
    }
  }
  return count;
};

/** The header's parts do not overlap; the title shows whole. */
const expectHeaderUsable = async (page: Page, where: string) => {
  const header = page.locator('#tabletalk-chat .header');
  const boxes = await header.evaluate((node) =>
    Array.from((node as unknown as Element).children)
      .filter((child) => child.offsetParent !== null)
      .map((child) => ({ name: child.className, box: child.getBoundingClientRect().toJSON() as Rect })),
  );
  expect(boxes.map((b) => b.name).sort(), where).toEqual(['close', 'logo', 'new', 'title'].sort());
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const apart = a.box.right <= b.box.left + 0.5 || b.box.right <= a.box.left + 0.5;
      expect(apart, `${where}: ${a.name} overlaps ${b.name}`).toBe(true);
    }
  }
  const title = page.locator('#tabletalk-chat .header .title');
  const [scroll, client] = await title.evaluate((node) => [
    (node as unknown as Element).scrollWidth,
    (node as unknown as Element).clientWidth,
  ]);
  expect(scroll, `${where}: the title is cut`).toBeLessThanOrEqual(client);
  // The New button keeps its name for assistive technology when its words are hidden.
  expect(await page.locator('#tabletalk-chat button.new').getAttribute('title')).toBe('New conversation');
  expect(await page.locator('#tabletalk-chat button.new').textContent()).toBe('New conversation');
};

const shoot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });

const openDemo = async (page: Page, { fresh = true } = {}) => {
  await page.goto(`${gateway.url}/`);
  if (fresh) {
    // No conversation left from another test of this browser profile.
    await page.evaluate(() =>
      (globalThis as unknown as { localStorage: { clear(): void } }).localStorage.clear(),
    );
    await page.reload();
  }
  const host = page.locator('#tabletalk-chat');
  await expect.poll(() => host.locator('.root').getAttribute('data-ready'), { timeout: 20_000 }).toBe('true');
  await host.locator('.launcher').click();
  await expect.poll(() => host.locator('.panel').isVisible()).toBe(true);
  return host;
};

const ask = async (page: Page, question: string, charts: number) => {
  const host = page.locator('#tabletalk-chat');
  const answers = await host.locator('.log .msg.assistant').count();
  await host.locator('textarea').fill(question);
  await host.locator('textarea').press('Enter');
  await expect
    .poll(() => host.locator('.log .msg.assistant:not([aria-busy])').count(), { timeout: 30_000 })
    .toBe(answers + 1);
  await expect.poll(() => host.locator('svg.chart').count()).toBe(charts);
};

/** A bar chart of twenty long labels with values in the billions, and a line of 36 months around zero. */
const extremeConversation = () => {
  const long = Array.from({ length: 20 }, (_, i) => ({
    label: `Camp kitchen and outdoor cooking equipment, range ${i + 1}`,
    revenue: 1_234_567_890 * (i + 1) + 0.5,
  }));
  const months = Array.from({ length: 36 }, (_, i) => ({
    month: `${2023 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
    profit: (i % 2 === 0 ? -1 : 1) * 98_765.4321 * (i + 1),
  }));
  const bar = {
    title: 'Revenue per product line',
    description: 'Revenue per product line, 20 bars',
    data: { values: long },
    mark: { type: 'bar' },
    encoding: {
      x: {
        field: 'label',
        type: 'nominal',
        title: 'Product line of the outdoor catalogue, by its long name',
      },
      y: { field: 'revenue', type: 'quantitative', title: 'Revenue in euros, tax included, before returns' },
    },
  };
  const line = {
    title: 'Profit per month',
    description: 'Profit over month, 36 points',
    data: { values: months },
    mark: { type: 'line' },
    encoding: {
      x: { field: 'month', type: 'temporal', title: 'Month' },
      y: { field: 'profit', type: 'quantitative', title: 'Profit' },
    },
  };
  return {
    conversationId: '01900000-0000-7000-8000-00000000abcd',
    messages: [
      { role: 'user', text: 'revenue per product line' },
      { role: 'assistant', text: 'Here it is.', chart: bar, results: long },
      { role: 'user', text: 'profit per month' },
      { role: 'assistant', text: 'Here it is.', chart: line, results: months },
    ],
  };
};

describe('the chat widget’s layout in Chromium', () => {
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
    databaseId = (await registerDatabase({ organizationId: acme.organization.id })).id;
    const demo: DemoPageOptions = {
      databaseId,
      session: { skKey: acme.sk, tenantId: '1', scopeId: 'visitor-1' },
    };
    gateway = await startGateway({
      root,
      routes: routesOf(config),
      actions: demoBackend(demo),
      pages: widgetPages(demo),
    });
    // A logo beside the title and the buttons, as the demo has: the header's tightest case.
    await saveBranding(acme.organization.id, { logo_url: `${gateway.url}/logo.svg` });
    mkdirSync(artifacts, { recursive: true });
    userDataDir = mkdtempSync(join(tmpdir(), 'tabletalk-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      args: LAUNCH_FLAGS,
      viewport: { width: 1280, height: 800 },
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await gateway?.close();
    await closeConnectors();
  });

  for (const size of WIDTHS) {
    it(`lays out the demo's charts, tables and header at ${size.width} px`, {
      timeout: 120_000,
    }, async () => {
      const page = await context.newPage();
      await page.setViewportSize({ width: size.width, height: size.height });
      const missing: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 404) missing.push(response.url());
      });
      const host = await openDemo(page);
      await expectHeaderUsable(page, `${size.name} header`);

      await ask(page, 'revenue per category', 1);
      const bars = host.locator('svg.chart').last();
      expect(await bars.getAttribute('data-kind')).toBe('bar');
      // Axes named from the reading: the grouping's and the measure's words.
      expect(await bars.locator('text.title.x').textContent()).toBe('Category');
      expect(await bars.locator('text.title.y').textContent()).toBe('Revenue');
      await expectChartsLaidOut(page, `${size.name}, revenue per category`);

      // The table: no id beside the category's name, numbers as the text writes them.
      await host.locator('details.table-toggle summary').last().click();
      const table = host.locator('.log table').last();
      const headings = (await table.locator('th').allTextContents()).map((h) => h.toLowerCase());
      expect(headings).not.toContain('id');
      const figures = await table.locator('td.num').allTextContents();
      expect(figures.length).toBeGreaterThan(1);
      for (const figure of figures) expect(figure).toMatch(/^-?\d{1,3}(?:,\d{3})*(?:\.\d{1,2})?$/);
      const text = (await host.locator('.log .msg.assistant .text').last().textContent()) ?? '';
      expect(figures.some((figure) => text.includes(figure))).toBe(true);

      // Full labels: focus the first bar (one tab stop), then the next with an arrow key; hover one.
      const names = await table.locator('tbody tr td:first-child').allTextContents();
      const tip = host.locator('.chart-tip').last();
      await bars.locator('.mark').first().focus();
      await expect.poll(() => tip.isVisible()).toBe(true);
      expect(await tip.textContent()).toContain(names[0]);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => tip.textContent()).toContain(names[1]);
      expect(await bars.locator('.mark[tabindex="0"]').count()).toBe(1);
      await bars.locator('.mark').nth(2).hover();
      await expect.poll(() => tip.textContent()).toContain(names[2]);
      await shoot(page, `widget-${size.name}-bars`);

      // Suggestions continue the answer: revenue again, never a count of another table.
      const suggestions = await host.locator('.suggestions button').allTextContents();
      expect(suggestions.length).toBeGreaterThan(0);
      for (const suggestion of suggestions) {
        expect(suggestion).toMatch(/revenue/i);
        expect(suggestion).not.toMatch(/^How many/);
      }

      await ask(page, 'revenue per month in 2025', 2);
      const line = host.locator('svg.chart').last();
      expect(await line.getAttribute('data-kind')).toBe('line');
      expect(await line.locator('text.title.x').textContent()).toBe('Month');
      expect(await line.locator('text.title.y').textContent()).toBe('Revenue');
      await expectChartsLaidOut(page, `${size.name}, revenue per month`);
      await shoot(page, `widget-${size.name}-line`);
      expect(missing).toEqual([]);
      await host.locator('button.new').click();
      await page.close();
    });

    it(`lays out charts of any value and label length at ${size.width} px`, async () => {
      const page = await context.newPage();
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(`${gateway.url}/`);
      await page.evaluate(
        ([key, value]) =>
          (
            globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }
          ).localStorage.setItem(key, value),
        [storageKey(), JSON.stringify(extremeConversation())] as const,
      );
      const host = await openDemo(page, { fresh: false });
      await expect.poll(() => host.locator('svg.chart').count()).toBe(2);
      expect(await expectChartsLaidOut(page, `${size.name}, extreme values`)).toBe(2);
      // A shortened label is whole in its tooltip on hover.
      const bars = host.locator('svg.chart').first();
      await bars.locator('.mark').nth(19).hover();
      await expect
        .poll(() => host.locator('.chart-tip').first().textContent())
        .toContain('Camp kitchen and outdoor cooking equipment, range 20');
      await host.locator('.log').evaluate((node) => {
        (node as unknown as Element).scrollTop = 0;
      });
      await shoot(page, `widget-${size.name}-extreme`);
      await host.locator('button.new').click();
      await page.close();
    });
  }

  it('keeps the header usable at 320 px, and the demo page has its icon', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 320, height: 640 });
    await openDemo(page);
    await expectHeaderUsable(page, '320 px header');
    await shoot(page, 'widget-320-header');
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/favicon.svg');
    const response = await fetch(`${gateway.url}${icon}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('image/svg+xml');
    expect((await fetch(`${gateway.url}/favicon.ico`)).status).toBe(200);
    await page.close();
  });
});
