import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { createId } from './support/catalog-fixtures';
import { newCard, newCustomer, newSubscription } from './support/factories';
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

const DECLINING = '4000000000000002';
const GOOD = '4242424242424242';
const DUE_ON_RECEIPT = 1;

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
 * plan (1200/yr = 100/month) on Jan 5 2026, neither paying its invoices (Net 30); D to a
 * 49/month plan charged to a card that declines, replaced before the second retry; A
 * upgrades to pro (250) on Feb 10; B cancels on Mar 10. Every chart is read back from the
 * SVG and compared with the figures worked out by hand.
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
    const d = await newCustomer(t, { company: 'D' });
    const card = async (number: string) =>
      createId(t, '/api/v3/creditcard', { customer_id: d, ...newCard({ number }) });
    const dPkg = await createId(t, '/api/v3/package', {
      customer_id: d,
      terms_id: DUE_ON_RECEIPT,
      line_items: [{ item_id: await item('Plan', '49', 'mon') }],
      creditcard_id: await card(DECLINING),
    });
    await t.post(`/api/v3/package/${dPkg}?action=invoice`, {}).expect(200);
    await moveClock(t, '2026-01-05T18:01:00Z');
    await moveClock(t, '2026-01-08T18:02:00Z');
    await t
      .post(`/api/v3/package/${dPkg}?action=paymethod`, { paymethod: 'crd', creditcard_id: await card(GOOD) })
      .expect(200);
    await moveClock(t, '2026-01-13T18:00:00Z');
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

  it('shows the hand-computed figures in every chart, on a desktop and a phone', async () => {
    const context = await browser.newContext({
      viewport: { width: 1100, height: 1400 },
      httpCredentials: { username: API_USER, password: API_PASS },
    });
    const page = await context.newPage();
    const res = await page.goto(`${base}/dashboard?currency=USD&from=2026-01&to=2026-03`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'none'");
    await page.getByRole('heading', { name: 'Revenue dashboard' }).waitFor();

    const months = (...values: number[]) => values.map((v, i) => [`2026-0${i + 1}`, v]);
    expect(await bars(page, "MRR at each month's end", 'MRR')).toEqual(
      // Jan: A 100 + B 1200 / 12 + D 49 = 249; Feb: A's upgrade 100 -> 250 makes 399; Mar: B cancels, 399 − 100.
      months(249, 399, 299),
    );
    expect(await bars(page, 'MRR movements', 'New')).toEqual(months(249, 0, 0));
    expect(await bars(page, 'MRR movements', 'Expansion')).toEqual(months(0, 150, 0));
    expect(await bars(page, 'MRR movements', 'Reactivation')).toEqual(months(0, 0, 0));
    expect(await bars(page, 'MRR movements', 'Contraction')).toEqual(months(0, 0, 0));
    expect(await bars(page, 'MRR movements', 'Churned')).toEqual(months(0, 0, -100));
    // Churn and retention, in %: January has no paying customer at its start (no rate: 0).
    // Feb: nobody churned of 3; NRR (249 + 150) / 249 = 1.60240… -> 160.24 %.
    // Mar: 1 of 3 churned = 33.33 %; gross revenue churn 100 / 399 = 0.25062… -> 25.06 %;
    // NRR (399 − 100) / 399 = 0.74937… -> 74.94 %.
    expect(await bars(page, 'Churn and retention', 'Customer churn')).toEqual(months(0, 0, 33.33));
    expect(await bars(page, 'Churn and retention', 'Gross revenue churn')).toEqual(months(0, 0, 25.06));
    expect(await bars(page, 'Churn and retention', 'Net revenue retention')).toEqual(months(0, 160.24, 74.94));
    // Invoiced by invoice date: Jan 5 A 100 + B 1200 + D 49 = 1349; Feb 5 A 100 (basic, billed
    // in advance before the upgrade) + D 49 = 149; Mar 5 A 250 + D 49 = 299. Collected: D's 49
    // each month (January's on the second retry, Jan 12); A and B pay nothing.
    expect(await bars(page, 'Invoiced and collected', 'Invoiced')).toEqual(months(1349, 149, 299));
    expect(await bars(page, 'Invoiced and collected', 'Collected')).toEqual(months(49, 49, 49));
    // As of today, Mar 10 (Net 30): A's Mar 5 250 (due Apr 4) not yet due; A's Feb 5 100
    // (due Mar 7) 3 days past due; A's Jan 5 100 and B's 1200 (due Feb 4) 34 days: 1300.
    expect(await bars(page, 'Receivables by days past due', 'Open balance')).toEqual([
      ['Not yet due', 250],
      ['1–30 days', 100],
      ['31–60 days', 1300],
      ['61–90 days', 0],
      ['Over 90 days', 0],
    ]);
    // D's Jan 5 charge declined, then paid on the second retry: 49 failed, 49 recovered.
    expect(await bars(page, 'Failed and recovered automatic charges', 'Failed')).toEqual(months(49, 0, 0));
    expect(await bars(page, 'Failed and recovered automatic charges', 'Recovered')).toEqual(months(49, 0, 0));
    await expect(page.locator('#tile-mrr b').textContent()).resolves.toBe('$ 299.00');
    await expect(page.locator('#tile-arr b').textContent()).resolves.toBe('$ 3588.00'); // 12 × 299
    await expect(page.locator('#tile-customers b').textContent()).resolves.toBe('2'); // A and D
    await expect(page.locator('#tile-nrr b').textContent()).resolves.toBe('74.94 %');
    // March's row of the movements table: start 399, churned 100, end 299, 2 customers.
    const march = await page.locator('#mrr tbody tr').nth(2).locator('th, td').allTextContents();
    expect(march).toEqual(['2026-03', '399.00', '0.00', '0.00', '0.00', '0.00', '100.00', '299.00', '3588.00', '2']);
    // Each section links its CSV with the same currency and months.
    const csvLinks = await page.locator('a.csv').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(csvLinks).toHaveLength(5);
    expect(csvLinks[0]).toBe('/dashboard/csv/mrr?from=2026-01&to=2026-03&currency=USD');
    const csv = await page.request.get(`${base}${csvLinks[0]}`);
    expect(await csv.text()).toContain('USD,2026-03,399,0,0,0,100,0,299,3588,2');

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
