import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { BillingRun } from 'src/billing-runs/runs/billing-run';
import { BillingRunSummary, RunInvoice } from 'src/billing-runs/runs/run-summary';
import { InvoiceLine } from 'src/invoices/entities/invoice-line.entity';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/** What a run reports of an invoice, its lines read back from the database for a real run. */
type Described = { packageId: number; date: string; currency: string; total: string; lines: string[] };

/**
 * Issue 37 (defect 13), DESIGN §6 "Billing runs": a dry run is the run without the commit. As of
 * the same moment on the same database it reports the same invoices (every catch-up cycle),
 * the same lines, totals per currency and failures as the real run then issues.
 */
describe('billing run: --dry-run is the run without the commit', () => {
  let t: TestApp;
  let usage: { server: Server; url: string } | undefined;

  afterEach(async () => {
    await t.close();
    if (usage) await new Promise((resolve) => usage!.server.close(resolve));
    usage = undefined;
  });

  /** Runs as of `asOf`, keeping what the listener is told of each invoice. */
  async function runAsOf(asOf: Date, dryRun: boolean): Promise<{ summary: BillingRunSummary; invoices: RunInvoice[] }> {
    const invoices: RunInvoice[] = [];
    const summary = await t.app.get(BillingRun).run(asOf, { dryRun, listener: { invoiced: (i) => invoices.push(i) } });
    return { summary, invoices };
  }

  /** The dry run's invoices as listed; the real run's with their lines as written. */
  async function described(invoices: RunInvoice[], fromDatabase: boolean): Promise<Described[]> {
    const out: Described[] = [];
    for (const i of invoices) {
      const lines = fromDatabase
        ? (
            await t.dataSource.manager.find(InvoiceLine, {
              where: { invoice_id: i.invoiceId! },
              order: { sort_order: 'ASC' },
            })
          ).map((l) => ({ descrip: l.descrip, origin: l.line_origin, amount: l.line_subtotal }))
        : i.lines!;
      out.push({
        packageId: i.packageId,
        date: i.date,
        currency: i.currency,
        total: i.total.toFixed(2),
        lines: lines.map((l) => `${l.origin} ${l.amount.toFixed(2)} ${l.descrip ?? ''}`),
      });
    }
    return out.sort((a, b) => a.packageId - b.packageId || a.date.localeCompare(b.date));
  }

  const plain = (s: BillingRunSummary) => ({
    due: s.due,
    invoices: s.invoices,
    billed: Object.fromEntries(Object.entries(s.billed).map(([c, v]) => [c, v.toFixed(2)])),
    failures: s.failures,
  });

  it('catches up every started cycle with setup, trial, expiry, quarterly and pushed usage, as the run does', async () => {
    t = await createTestApp();
    // 2026-01-15 10:00 in Chicago.
    t.clock.set(new Date('2026-01-15T16:00:00Z'));
    const plan = await createId(t, '/api/v3/item', {
      name: 'Plan',
      tiersets: [{ pricemodel: 'fla', paycycle: 'mon', base: '30', setup: '50' }],
    });
    const support = await createId(t, '/api/v3/item', { name: 'Support', pricemodel: { pricemodel: 'fla', base: 20 } });
    const onboarding = await createId(t, '/api/v3/item', {
      name: 'Onboarding',
      pricemodel: { pricemodel: 'fla', base: 15 },
    });
    const calls = await createId(t, '/api/v3/item', {
      name: 'API calls',
      is_usage: true,
      tiersets: [{ pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: '0.10' }] }],
    });
    const customer = await createId(t, '/api/v3/customer', { company: 'Predicted' });
    const monthly = await createId(t, '/api/v3/package', {
      customer_id: customer,
      paycycle: 'mon',
      line_items: [
        { item_id: plan },
        { item_id: support, trial_days: 14 },
        { item_id: calls },
        { item_id: onboarding, expire_recurs: 2 },
      ],
    });
    const quarterly = await createId(t, '/api/v3/package', {
      customer_id: customer,
      paycycle: 'qtr',
      line_items: [{ item_id: support, line_quantity: 3 }],
    });
    const lines = (await t.get(`/api/v3/package/${monthly}`).expect(200)).body.response.line_items as Json[];
    const callsLine = lines.find((l) => l.item_id === calls)!.line_item_id as number;
    for (const [at, value] of [
      ['2026-01-20 12:00:00', 40],
      ['2026-02-20 12:00:00', 70],
      ['2026-04-02 12:00:00', 15],
    ] as const) {
      await t.post('/api/v3/usage', { line_item_id: callsLine, usage_value: value, from: at, to: at }).expect(201);
    }

    // As of 2026-05-20: the monthly one has 5 started cycles (Jan 15 … May 15), the quarterly 2 (Jan 15, Apr 15).
    const asOf = new Date('2026-05-20T17:00:00Z');
    const dry = await runAsOf(asOf, true);
    const dryInvoices = await described(dry.invoices, false);
    expect(dryInvoices.map((i) => [i.packageId, i.date, i.total])).toEqual([
      // By hand: Jan = Plan 30 + setup 50 + Support in trial 0 + Onboarding 15 = 95.00;
      // Feb = 30 + 20 + 15 + January's usage 40 × 0.10 = 4.00 → 69.00;
      // Mar = 30 + 20 (Onboarding expired after 2) + February's 70 × 0.10 = 7.00 → 57.00;
      // Apr = 30 + 20 + the Mar 15–Apr 15 cycle's usage (Apr 2: 15 × 0.10 = 1.50) → 51.50;
      // May = 30 + 20 + no usage in Apr 15–May 15 → 50.00.
      [monthly, '2026-01-15', '95.00'],
      [monthly, '2026-02-15', '69.00'],
      [monthly, '2026-03-15', '57.00'],
      [monthly, '2026-04-15', '51.50'],
      [monthly, '2026-05-15', '50.00'],
      // Quarterly Support 3 × 20.00 = 60.00 on Jan 15 and Apr 15.
      [quarterly, '2026-01-15', '60.00'],
      [quarterly, '2026-04-15', '60.00'],
    ]);
    // 95 + 69 + 57 + 51.50 + 50 + 60 + 60 = 442.50.
    expect(plain(dry.summary)).toEqual({ due: 2, invoices: 7, billed: { USD: '442.50' }, failures: [] });
    // January's lines: Plan, its setup labelled setup, Support free in trial, Onboarding.
    expect(dryInvoices[0].lines).toEqual([
      'recurring 30.00 ',
      'setup 50.00 Setup: Plan',
      'trial 0.00 ',
      'recurring 15.00 ',
    ]);
    // Nothing was written.
    expect((await t.get('/api/v3/invoice').expect(200)).body.response).toEqual([]);

    const real = await runAsOf(asOf, false);
    expect(plain(real.summary)).toEqual(plain(dry.summary));
    expect(await described(real.invoices, true)).toEqual(dryInvoices);
  }, 300_000);

  it('with USAGE_URL: the same usage pulled per cycle, and the same failure for a subscription it refuses', async () => {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
        if (body.customer?.company === 'Refused') return res.writeHead(500).end('{}');
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ line_items: [{ usage_amount: 12 }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    usage = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/usage` };
    t = await createTestApp({
      USAGE_URL: usage.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      USAGE_URL_TIMEOUT_MS: '5000',
    });
    t.clock.set(new Date('2026-03-01T16:00:00Z'));
    const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
    const calls = await createId(t, '/api/v3/item', {
      name: 'API calls',
      is_usage: true,
      tiersets: [{ pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: '0.50' }] }],
    });
    const pulled = await createId(t, '/api/v3/customer', { company: 'Pulled' });
    const refused = await createId(t, '/api/v3/customer', { company: 'Refused' });
    const pkg = await createId(t, '/api/v3/package', {
      customer_id: pulled,
      line_items: [{ item_id: plan }, { item_id: calls }],
    });
    const refusedPkg = await createId(t, '/api/v3/package', {
      customer_id: refused,
      line_items: [{ item_id: plan }, { item_id: calls }],
    });

    const asOf = new Date('2026-05-02T17:00:00Z');
    const dry = await runAsOf(asOf, true);
    const dryInvoices = await described(dry.invoices, false);
    // Mar 1 = Plan 10.00 (no usage is asked for before the first cycle); Apr 1 and May 1 =
    // 10.00 + 12 × 0.50 = 16.00. The refused one bills its first cycle, then fails on its second.
    expect(dryInvoices.map((i) => [i.packageId, i.date, i.total])).toEqual([
      [pkg, '2026-03-01', '10.00'],
      [pkg, '2026-04-01', '16.00'],
      [pkg, '2026-05-01', '16.00'],
      [refusedPkg, '2026-03-01', '10.00'],
    ]);
    expect(dry.summary.failures.map((f) => f.packageId)).toEqual([refusedPkg]);
    // 10 + 16 + 16 + 10 = 52.00.
    expect(plain(dry.summary)).toMatchObject({ due: 2, invoices: 4, billed: { USD: '52.00' } });

    const real = await runAsOf(asOf, false);
    expect(plain(real.summary)).toEqual(plain(dry.summary));
    expect(await described(real.invoices, true)).toEqual(dryInvoices);
  }, 300_000);
});
