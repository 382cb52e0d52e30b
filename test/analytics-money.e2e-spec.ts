import { Invoice } from 'src/invoices/entities/invoice.entity';
import { reportCsv } from 'src/analytics/analytics.controller';
import { createId } from './support/catalog-fixtures';
import { newCard, newCustomer, newInvoiceOf } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const DECLINING = '4000000000000002';
const DUE_ON_RECEIPT = 1;

/** RFC 4180 CSV back into rows of strings keyed by the header (quotes and doubled quotes). */
function parseCsv(text: string): Array<Record<string, string>> {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && ch === '"') quoted = false;
    else if (quoted) field += ch;
    else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      field = '';
      record = [];
      i++;
    } else field += ch;
  }
  const [header, ...rows] = records;
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

/**
 * Revenue, receivables aging, dunning recovery and usage in USD (and usage in GBP), every
 * figure by hand, under the test clock from Mon 2 Mar 2026, 10:00 in Chicago.
 */
describe('analytics: revenue, receivables, dunning and usage', () => {
  let t: TestApp;
  const after = (ms: number) => moveClock(t, new Date(t.clock.now().getTime() + ms));
  const report = async (path: string) =>
    (await t.get(`/api/v3/_analytics/${path}`).expect(200)).body.response as Array<{
      currency: string;
      count?: number;
      rows: Json[];
    }>;
  const card = async (customer: number, number = '4242424242424242') =>
    createId(t, '/api/v3/creditcard', { customer_id: customer, ...newCard({ number }) });
  const invoiceNow = async (pkg: number): Promise<number> => {
    await t.post(`/api/v3/package/${pkg}?action=invoice`, {}).expect(200);
    const invoice = await t.dataSource.manager.findOneOrFail(Invoice, {
      where: { package_id: pkg },
      order: { invoice_id: 'DESC' },
    });
    return invoice.invoice_id;
  };

  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true', DUNNING_CANCEL_AFTER_LAST_RETRY: 'true' });
    t.clock.set(new Date('2026-03-02T16:00:00Z'));
    const item = await createId(t, '/api/v3/item', {
      name: 'Consulting',
      pricemodel: { pricemodel: 'fla', base: 120 },
    });
    const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 49 } });
    const meter = await createId(t, '/api/v3/item', {
      name: 'Calls, metered',
      is_usage: true,
      tiersets: [
        {
          currency_id: 3,
          pricemodel: 'uni',
          paycycle: 'mon',
          tiers: [{ unit_from: 1, unit_to: null, amount: '0.50' }],
        },
      ],
    });

    // R: a 120.00 invoice dated Mar 2, Net 30 (due Apr 1); 50.00 paid by card, 10.00 refunded.
    const r = await newCustomer(t, { company: 'R' });
    const invoice = await newInvoiceOf(t, r, [{ item_id: item }], { date: '2026-03-02' });
    const pay = await t
      .post('/api/v3/transaction?action=pay', {
        customer_id: r,
        applied_to: [invoice],
        amount: 50,
        paymethods: [newCard()],
      })
      .expect(200);
    await t.post(`/api/v3/transaction/${pay.body.response.id}?action=refund`, { amount: 10 }).expect(200);
    // W: a 120.00 invoice dated Mar 2 (due Apr 1), never paid, voided (written off) on Apr 3.
    const w = await newCustomer(t, { company: 'W' });
    const written = await newInvoiceOf(t, w, [{ item_id: item }], { date: '2026-03-02' });

    // D: a 49.00 card subscription invoice declined, retried after 3 days (declined), then
    // paid on the second retry (day 7) with a working card.
    const d = await newCustomer(t, { company: 'D' });
    const dPkg = await createId(t, '/api/v3/package', {
      customer_id: d,
      terms_id: DUE_ON_RECEIPT,
      line_items: [{ item_id: plan }],
      creditcard_id: await card(d, DECLINING),
    });
    await invoiceNow(dPkg);
    // E: the same, never recovered: cancelled for non-payment after the last retry (day 14).
    const e = await newCustomer(t, { company: 'E' });
    const ePkg = await createId(t, '/api/v3/package', {
      customer_id: e,
      terms_id: DUE_ON_RECEIPT,
      line_items: [{ item_id: plan }],
      creditcard_id: await card(e, DECLINING),
    });
    await invoiceNow(ePkg);
    // G: a GBP subscription with a metered line; 120 units used on Mar 10.
    const g = await newCustomer(t, { company: 'G' });
    const gPkg = await createId(t, '/api/v3/package', {
      customer_id: g,
      currency_id: 3,
      line_items: [{ item_id: meter }],
    });
    const meteredLine = (await t.get(`/api/v3/package/${gPkg}`).expect(200)).body.response.line_items[0].line_item_id;

    await after(MINUTE_MS);
    await after(3 * DAY_MS + MINUTE_MS);
    const good = await card(d);
    await t.post(`/api/v3/package/${dPkg}?action=paymethod`, { paymethod: 'crd', creditcard_id: good }).expect(200);
    await after(5 * DAY_MS); // Mar 10: D paid on the second retry
    await t
      .post('/api/v3/usage', { line_item_id: meteredLine, usage_value: 120, from: '2026-03-10', to: '2026-03-10' })
      .expect(201);
    await after(8 * DAY_MS); // Mar 18: E cancelled for non-payment on Mar 16
    await moveClock(t, '2026-04-03T16:00:00Z'); // G's April invoice bills March's usage
    await t.post(`/api/v3/invoice/${written}?action=void`, {}).expect(200); // Apr 3, 10:00 in Chicago
  }, 300_000);
  afterAll(() => t.close());

  it('revenue: invoiced by invoice date, collected net of refunds, refunds, written off (USD)', async () => {
    const [usd] = await report('revenue?from=2026-03&to=2026-04&currency=USD');
    expect(usd.rows).toEqual([
      {
        month: '2026-03',
        invoiced: 338, // R 120 + W 120 (voided later, still invoiced in March) + D 49 + E 49
        collected: 89, // R 50 − 10 refunded + D 49 on the second retry
        credits: 0,
        refunds: 10,
        written_off: 0,
      },
      {
        month: '2026-04',
        invoiced: 49, // D's second month, Apr 2 (E is cancelled)
        collected: 49, // D's card, charged on Apr 2
        credits: 0,
        refunds: 0,
        written_off: 120, // W's open 120.00, voided on Apr 3
      },
    ]);
  });

  it('the revenue rollup equals the plain sums of the rows it keeps (every month and currency)', async () => {
    // Summed here from every invoice and transaction row, in cents, to compare with the
    // rollup the row triggers kept through the whole scenario (writes of every module).
    const m = t.dataSource.manager;
    const cents = (v: unknown) => Math.round(Number(v) * 100);
    const expected = new Map<string, number[]>();
    const at = (currency: unknown, date: unknown) => {
      const key = `${String(currency)}|${String(date instanceof Date ? date.toISOString() : date).slice(0, 7)}`;
      if (!expected.has(key)) expected.set(key, [0, 0, 0, 0]);
      return expected.get(key)!;
    };
    for (const i of await m.query<Json[]>(
      'SELECT currency_id, date, total FROM invoice WHERE deleted_datetime IS NULL',
    ))
      at(i.currency_id, i.date)[0] += cents(i.total);
    const counted = "status_str IN ('ok-successful', 'ok-pending')";
    for (const x of await m.query<Json[]>(
      `SELECT currency_id, transaction_date, transaction_type, amount FROM payment_transaction WHERE ${counted}`,
    )) {
      const sums = at(x.currency_id, x.transaction_date);
      const amount = cents(x.amount);
      if (x.transaction_type === 'pay') sums[1] += amount;
      if (x.transaction_type === 'ref') [sums[1], sums[3]] = [sums[1] - Math.abs(amount), sums[3] + Math.abs(amount)];
      if (x.transaction_type === 'cre') sums[2] += amount;
    }
    const rolled = await m.query<Json[]>(
      `SELECT currency_id, month, SUM(invoiced_cents) AS i, SUM(collected_cents) AS c, SUM(credits_cents) AS k,
              SUM(refunds_cents) AS r FROM revenue_month GROUP BY currency_id, month`,
    );
    const actual = new Map(
      rolled
        .map((r) => [`${String(r.currency_id)}|${String(r.month)}`, [r.i, r.c, r.k, r.r].map(Number)] as const)
        .filter(([, sums]) => sums.some((v) => v !== 0)),
    );
    for (const [key, sums] of expected) if (sums.every((v) => v === 0)) expected.delete(key);
    expect(actual).toEqual(expected);
    expect(expected.size).toBeGreaterThan(2);
  });

  it('receivables: an invoice unpaid 45 days past due lands in 31–60', async () => {
    // R owes 120 − 50 + 10 = 80, due Apr 1; May 16 is 45 days past due. E's 49 (due on
    // receipt, Mar 2) is 75 days past due then: 61–90. W's invoice is void by then.
    const [usd] = await report('receivables?as_of=2026-05-16&currency=USD');
    expect(usd.rows).toEqual([
      { as_of: '2026-05-16', not_due: 0, days_1_30: 0, days_31_60: 80, days_61_90: 49, days_over_90: 0, total: 129 },
    ]);
    // On Mar 10, R's 80 and W's 120 (voided only on Apr 3) are not yet due; E's 49 is 8 days past due.
    const [early] = await report('receivables?as_of=2026-03-10&currency=USD');
    expect(early.rows[0]).toMatchObject({ not_due: 200, days_1_30: 49, total: 249 });
    const [byCustomer] = await report('receivables?as_of=2026-05-16&currency=USD&by=customer');
    expect(byCustomer.rows.map((row) => [row.days_31_60, row.days_61_90, row.total])).toEqual([
      [80, 0, 80],
      [0, 49, 49],
    ]);
    // Paged as every list (customer id order, default 10, at most 500); `count` is every page's.
    const [second] = await report('receivables?as_of=2026-05-16&currency=USD&by=customer&limit=1&offset=1');
    expect(second.count).toBe(2);
    expect(second.rows.map((row) => row.total)).toEqual([49]);
    await t.get('/api/v3/_analytics/receivables?by=customer&limit=501').expect(400);
    await t.get('/api/v3/_analytics/receivables?as_of=2026-02-30').expect(400);
  });

  it('dunning: a charge recovered on the second retry counts as recovered', async () => {
    const [usd] = await report('dunning?from=2026-03&to=2026-03&currency=USD');
    expect(usd.rows).toEqual([
      {
        month: '2026-03',
        failed_invoices: 2, // D and E declined on Mar 2
        failed_amount: 98,
        recovered_invoices: 1, // D, on the second retry
        recovered_amount: 49,
        recovery_rate: 0.5, // 1 / 2
        cancelled_nonpayment: 1, // E, after the last retry
      },
    ]);
  });

  it('usage: units and amounts billed per month and metered item (GBP)', async () => {
    const [gbp] = await report('usage?from=2026-03&to=2026-04&currency=GBP');
    expect(gbp.rows).toEqual([
      // April's invoice bills March's 120 units at 0.50 = 60.00.
      { month: '2026-04', item_id: expect.any(Number), item_name: 'Calls, metered', units: 120, amount: 60 },
    ]);
  });

  it('every endpoint’s CSV parses back to its JSON figures', async () => {
    for (const path of [
      'mrr?from=2026-01&to=2026-04',
      'churn?from=2026-01&to=2026-04',
      'revenue?from=2026-01&to=2026-04',
      'receivables?as_of=2026-05-16',
      'receivables?as_of=2026-05-16&by=customer',
      'dunning?from=2026-01&to=2026-04',
      'usage?from=2026-01&to=2026-04',
    ]) {
      const json = await report(path);
      const csv = await t.get(`/api/v3/_analytics/${path}&format=csv`).expect(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      const viaAccept = await t.get(`/api/v3/_analytics/${path}`).set('Accept', 'text/csv').expect(200);
      expect(viaAccept.text).toBe(csv.text);
      const expected = json.flatMap((set) =>
        set.rows.map((row) =>
          Object.fromEntries(
            Object.entries({ currency: set.currency, ...row }).map(([k, v]) => [k, v === null ? '' : String(v)]),
          ),
        ),
      );
      expect(parseCsv(csv.text)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
    // The CSV writer quotes what needs it.
    expect(reportCsv({ columns: ['currency', 'n'], sets: [{ currency: 'USD', rows: [{ n: 'a, "b"' }] }] })).toBe(
      'currency,n\r\nUSD,"a, ""b"""\r\n',
    );
  });

  it('open_invoice holds the open invoices, marked where money was applied (row triggers)', async () => {
    const m = t.dataSource.manager;
    const kept = await m.query<Json[]>(
      'SELECT invoice_id, total, has_applications FROM open_invoice ORDER BY invoice_id',
    );
    const open = await m.query<Json[]>(
      `SELECT i.invoice_id, i.total, CASE WHEN EXISTS (SELECT 1 FROM transaction_applied ta WHERE ta.invoice_id = i.invoice_id)
         THEN 1 ELSE 0 END AS has_applications
       FROM invoice i WHERE i.invoice_status_str LIKE 'open-%' AND i.deleted_datetime IS NULL ORDER BY i.invoice_id`,
    );
    const plain = (rows: Json[]) =>
      rows.map((r) => [Number(r.invoice_id), Number(r.total), Number(r.has_applications)]);
    expect(plain(kept)).toEqual(plain(open));
    // Both kinds are there: R's invoice (50 paid, 10 refunded) is marked.
    expect(plain(kept).some(([, total, applied]) => total === 120 && applied === 1)).toBe(true);
    expect(plain(kept).some(([, , applied]) => applied === 0)).toBe(true);
    expect(kept.length).toBeGreaterThanOrEqual(2);
  });

  // Last: it voids G's April invoice. The usage rollup follows the invoice (row triggers).
  it('usage: a voided invoice’s usage lines leave its month', async () => {
    const g = await t.dataSource.manager.findOneOrFail(Invoice, {
      where: { currency_id: 3 },
      order: { invoice_id: 'DESC' },
    });
    await t.post(`/api/v3/invoice/${g.invoice_id}?action=void`, {}).expect(200);
    const [gbp] = await report('usage?from=2026-03&to=2026-04&currency=GBP');
    expect(gbp.rows).toEqual([]);
  });
});
