// GET /docs in a real browser: headless Chromium (Debian's package, driven by playwright-core)
// opens the page over loopback, and we check what a reader sees and that nothing was fetched
// from any other host. Without Chromium the test skips outside CI; in CI it must run.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/start.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM && process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs the Debian package chromium`);
if (!HAVE_CHROMIUM) console.warn(`docs.browser.test.ts: skipped, ${CHROMIUM} not found (apt-get install chromium)`);

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

let dir: string;
let server: RunningServer;
let browser: Browser;
let root: string;

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  dir = mkdtempSync(join(tmpdir(), 'bolag-docs-'));
  server = await startServer({ port: 0, host: '127.0.0.1', dbPath: join(dir, 'r.db'), seedCount: 50, workers: false });
  root = server.listenUrl.replace(/\/api\/public\/v1$/, '');
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE_CHROMIUM)('GET /docs in Chromium', () => {
  it('renders every operation with its parameters and schemas, without a key and from this host only', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const hosts: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol === 'http:' || url.protocol === 'https:') hosts.push(url.host.replace(/:\d+$/, ''));
    });
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });

    const response = await page.goto(`${root}/docs`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    // Swagger UI renders every operation open: on a busy two-core machine that takes a while.
    await page.waitForSelector('.opblock', { timeout: 90_000 });

    // Every operation of the OpenAPI document is on the page.
    const spec = (await (await fetch(`${root}/api/public/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
      components: { schemas: Record<string, unknown> };
    };
    const shown = await page.$$eval('.opblock-summary', (nodes) =>
      nodes.map((n) => `${n.querySelector('.opblock-summary-method')?.textContent?.trim()} ${n.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
    );
    const expected = Object.entries(spec.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(expected.length).toBeGreaterThan(10);
    expect(shown.sort()).toEqual(expected.sort());

    // The search operation, open, with its parameters by name.
    const search = page.locator('#operations-Companies-searchCompanies, .opblock-get:has([data-path="/companies"])').first();
    await expect.poll(() => search.isVisible()).toBe(true);
    const paramNames = await search.locator('.parameters .parameter__name').allInnerTexts();
    const names = paramNames.map((t) => t.replace(/\s*\*?\s*required.*$/s, '').trim());
    for (const p of spec.paths['/companies'].get.parameters ?? []) expect(names).toContain(p.name);
    for (const p of ['q', 'county', 'revenue_min', 'near', 'radius_km', 'sort', 'limit', 'cursor']) expect(names).toContain(p);

    // The schemas section lists every component schema, open.
    const schemas = await page.$$eval('section.models article[data-json-schema-level="0"] > .json-schema-2020-12-head .json-schema-2020-12__title', (nodes) =>
      nodes.map((n) => n.textContent?.trim()),
    );
    expect(schemas.sort()).toEqual(Object.keys(spec.components.schemas).sort());
    expect(await page.locator('section.models').innerText()).toContain('org_nr');

    expect([...new Set(hosts)].filter((h) => !LOOPBACK.has(h))).toEqual([]);
    expect(hosts.length).toBeGreaterThan(3); // the page, its scripts and styles, the document
    expect(consoleErrors).toEqual([]);
    if (process.env.BOLAG_DOCS_SCREENSHOT) await page.screenshot({ path: process.env.BOLAG_DOCS_SCREENSHOT, fullPage: false });
    await page.close();
  }, 150_000);
});
