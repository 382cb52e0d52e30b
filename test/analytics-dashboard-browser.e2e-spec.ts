import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { createId } from './support/catalog-fixtures';
import { newCustomer, newSubscription } from './support/factories';
import { ARTIFACTS } from './support/hosted-pages';
import { API_PASS, API_USER, createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';

/** Debian's chromium; CHROMIUM_PATH overrides. Missing is a failure, never a skip. */
function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p): p is string => typeof p === 'string' && existsSync(p),
  );
  if (!found) throw new Error('The dashboard browser test needs Chromium: `apt-get install -y chromium`.');
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The dashboard in a real browser: A subscribes to basic (100/month) and B to an annual
 * plan (1200/yr = 100/month) on Jan 5 2026; A upgrades to pro (250) on Feb 10; B cancels
 * on Mar 10. MRR: Jan 200, Feb 350 (+150 expansion), Mar 250 (−100 churned).
 */
describe('the revenue dashboard in a real browser (chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    const executablePath = chromiumPath();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: base, TEST_CLOCK: 'true' });
    await t.app.listen(port, '127.0.0.1');
    t.clock.set(new Date('2026-01-05T18:00:00Z'));
    const item = (name: string, base: string, paycycle: string) =>
      createId(t, '/api/v3/item', { name, tiersets: [{ pricemodel: 'fla', paycycle, base }] });
    const [basic, pro, annual] = [
      await item('Basic', '100', 'mon'),
      await item('Pro', '250', 'mon'),
      await item('Annual', '1200', 'yrl'),
    ];
    const a = await newSubscription(t, await newCustomer(t, { company: 'A' }), [{ item_id: basic }]);
    const b = await newSubscription(t, await newCustomer(t, { company: 'B' }), [{ item_id: annual }], {
      paycycle: 'yrl',
    });
    await moveClock(t, '2026-02-10T18:00:00Z');
    const line = (await t.get(`/api/v3/package/${a}`).expect(200)).body.response.line_items[0].line_item_id;
    await t
      .post(`/api/v3/package/${a}?action=upgrade`, { line_items: [{ line_item_id: line, item_id: pro }] })
      .expect(200);
    await moveClock(t, '2026-03-10T18:00:00Z');
    await t.post(`/api/v3/package/${b}?action=cancel`, {}).expect(200);
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'], timeout: 20_000 });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The bars of one chart series: label -> value, as the SVG carries them. */
  const bars = (page: Page, chart: string, series: string) =>
    page
      .locator(`svg[aria-label^="${chart}"] rect[data-series="${series}"]`)
      .evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-label'), Number(r.getAttribute('data-value'))]));

  it('shows the hand-computed MRR and movements in its charts, on a desktop and a phone', async () => {
    const context = await browser.newContext({
      viewport: { width: 1100, height: 1400 },
      httpCredentials: { username: API_USER, password: API_PASS },
    });
    const page = await context.newPage();
    const res = await page.goto(`${base}/dashboard?currency=USD&from=2026-01&to=2026-03`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'none'");
    await page.getByRole('heading', { name: 'Revenue dashboard' }).waitFor();

    expect(await bars(page, "MRR at each month's end", 'MRR')).toEqual([
      ['2026-01', 200], // A 100 + B 1200 / 12
      ['2026-02', 350], // A upgrades 100 -> 250
      ['2026-03', 250], // B cancels: −100
    ]);
    expect(await bars(page, 'MRR movements', 'New')).toEqual([
      ['2026-01', 200],
      ['2026-02', 0],
      ['2026-03', 0],
    ]);
    expect(await bars(page, 'MRR movements', 'Expansion')).toEqual([
      ['2026-01', 0],
      ['2026-02', 150],
      ['2026-03', 0],
    ]);
    expect(await bars(page, 'MRR movements', 'Churned')).toEqual([
      ['2026-01', 0],
      ['2026-02', 0],
      ['2026-03', -100],
    ]);
    await expect(page.locator('#tile-mrr b').textContent()).resolves.toBe('$ 250.00');
    await expect(page.locator('#tile-arr b').textContent()).resolves.toBe('$ 3000.00'); // 12 × 250
    await expect(page.locator('#tile-customers b').textContent()).resolves.toBe('1');
    // March's row of the movements table: start 350, churned 100, end 250, 1 customer.
    const march = await page.locator('#mrr tbody tr').nth(2).locator('th, td').allTextContents();
    expect(march).toEqual(['2026-03', '350.00', '0.00', '0.00', '0.00', '0.00', '100.00', '250.00', '3000.00', '1']);
    // Each section links its CSV with the same currency and months.
    const csvLinks = await page.locator('a.csv').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(csvLinks).toHaveLength(5);
    expect(csvLinks[0]).toBe('/dashboard/csv/mrr?from=2026-01&to=2026-03&currency=USD');
    const csv = await page.request.get(`${base}${csvLinks[0]}`);
    expect(await csv.text()).toContain('USD,2026-03,350,0,0,0,100,0,250,3000,1');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-desktop.png'), fullPage: true });
    // On a phone the page fits its width (no sideways scroll of the page itself).
    await page.setViewportSize({ width: 390, height: 844 });
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-phone.png'), fullPage: true });
    // In print the picker and CSV links are gone, the charts stay.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('form').isVisible()).toBe(false);
    expect(await page.locator('svg.chart').first().isVisible()).toBe(true);
    await context.close();
  }, 120_000);

  it('the picker changes the period; a bad month is a 400 page naming the field; no credential, 401', async () => {
    const context = await browser.newContext({ httpCredentials: { username: API_USER, password: API_PASS } });
    const page = await context.newPage();
    await page.goto(`${base}/dashboard?currency=USD&from=2026-01&to=2026-03`);
    await page.locator('input[name=from]').fill('2026-02');
    await Promise.all([page.waitForURL(/from=2026-02/), page.getByRole('button', { name: 'Show' }).click()]);
    expect((await bars(page, "MRR at each month's end", 'MRR')).map(([label]) => label)).toEqual([
      '2026-02',
      '2026-03',
    ]);
    const bad = await page.goto(`${base}/dashboard?from=2026-13`);
    expect(bad?.status()).toBe(400);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('"from"');
    await context.close();
    await t.http.get('/dashboard').expect(401);
  }, 60_000);
});
