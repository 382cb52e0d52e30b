import { createId } from './support/catalog-fixtures';
import { newCustomer, newSubscription } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

/**
 * Three customers over the year 2026 under the test clock (America/Chicago), every figure
 * worked out by hand. USD: A subscribes (basic 100 + a metered line), upgrades to pro (250),
 * downgrades, cancels and comes back; B takes an annual plan (1200/yr = 100/month) and a
 * basic plan with a 30-day trial, suspends the annual plan for two months and cancels the
 * basic plan. EUR: C subscribes (80) and cancels.
 */
describe('analytics: MRR movements, churn and retention under the test clock', () => {
  let t: TestApp;
  let mrr: Json[];
  let churn: Json[];
  let eur: Json[];

  const at = (iso: string) => moveClock(t, iso);
  const act = (id: number, action: string, body: Json = {}) =>
    t.post(`/api/v3/package/${id}?action=${action}`, body).expect(200);
  const lineOf = async (pkg: number, item: number): Promise<number> => {
    const lines = (await t.get(`/api/v3/package/${pkg}`).expect(200)).body.response.line_items as Json[];
    return lines.find((l) => l.item_id === item)!.line_item_id as number;
  };

  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true' });
    t.clock.set(new Date('2026-01-05T18:00:00Z'));
    const item = (name: string, tierset: Json, more: Json = {}) =>
      createId(t, '/api/v3/item', { name, tiersets: [tierset], ...more });
    const basic = await item('Basic', { pricemodel: 'fla', paycycle: 'mon', base: '100' });
    const pro = await item('Pro', { pricemodel: 'fla', paycycle: 'mon', base: '250' });
    const annual = await item('Annual', { pricemodel: 'fla', paycycle: 'yrl', base: '1200' });
    const meter = await item(
      'API calls',
      { pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: '0.50' }] },
      { is_usage: true },
    );
    const euro = await item('Euro plan', { pricemodel: 'fla', paycycle: 'mon', base: '80', currency_id: 2 });
    const [a, b, c] = [
      await newCustomer(t, { company: 'A' }),
      await newCustomer(t, { company: 'B' }),
      await newCustomer(t, { company: 'C' }),
    ];

    // Jan 5: A basic 100 (+ metered, counts 0), B annual 1200/yr (100/month), C 80 EUR.
    const aFirst = await newSubscription(t, a, [{ item_id: basic }, { item_id: meter }]);
    const bAnnual = await newSubscription(t, b, [{ item_id: annual }], { paycycle: 'yrl' });
    const cSub = await newSubscription(t, c, [{ item_id: euro }], { currency_id: 2 });
    // Feb 5: B basic with a 30-day trial: 0 until Mar 7.
    await at('2026-02-05T18:00:00Z');
    const bBasic = await newSubscription(t, b, [{ item_id: basic, trial_days: 30 }]);
    // Mar 10: A upgrades basic -> pro (+150).
    await at('2026-03-10T18:00:00Z');
    await act(aFirst, 'upgrade', { line_items: [{ line_item_id: await lineOf(aFirst, basic), item_id: pro }] });
    // Apr 10: C cancels (EUR churn 80).
    await at('2026-04-10T18:00:00Z');
    await act(cSub, 'cancel');
    // May 10: A downgrades pro -> basic (-150).
    await at('2026-05-10T18:00:00Z');
    await act(aFirst, 'upgrade', { line_items: [{ line_item_id: await lineOf(aFirst, pro), item_id: basic }] });
    // Jun 10: B suspends the annual plan until Aug 10 (-100, then +100).
    await at('2026-06-10T18:00:00Z');
    await act(bAnnual, 'suspend', { suspendto_datetime: '2026-08-10' });
    // Jul 10: A cancels (churned 100).
    await at('2026-07-10T18:00:00Z');
    await act(aFirst, 'cancel');
    // Sep 10: A comes back (reactivation 100).
    await at('2026-09-10T18:00:00Z');
    await newSubscription(t, a, [{ item_id: basic }]);
    // Nov 10: B cancels its basic plan (-100, B still pays for the annual one).
    await at('2026-11-10T18:00:00Z');
    await act(bBasic, 'cancel');
    await at('2026-12-11T18:00:00Z');

    const report = async (name: string, currency: string) =>
      (await t.get(`/api/v3/_analytics/${name}?from=2026-01&to=2026-12&currency=${currency}`).expect(200)).body
        .response as Array<{ currency: string; rows: Json[] }>;
    mrr = (await report('mrr', 'USD'))[0].rows;
    churn = (await report('churn', 'USD'))[0].rows;
    eur = (await report('mrr', 'EUR'))[0].rows;
  }, 900_000);
  afterAll(() => t.close());

  it('gives each month its MRR, ARR, movements and paying customers (USD)', () => {
    const pick = [
      'month',
      'start_mrr',
      'new',
      'expansion',
      'contraction',
      'churned',
      'reactivation',
      'mrr',
      'customers',
    ];
    const rows = mrr.map((r) => pick.map((k) => r[k]));
    expect(rows).toEqual([
      // month, start, new, expansion, contraction, churned, reactivation, end, customers
      ['2026-01', 0, 200, 0, 0, 0, 0, 200, 2], // A 100 + B annual 1200/12 = 100
      ['2026-02', 200, 0, 0, 0, 0, 0, 200, 2], // B's basic is in trial: 0
      ['2026-03', 200, 0, 250, 0, 0, 0, 450, 2], // A 100 -> 250 (+150), B trial ends Mar 7 (+100)
      ['2026-04', 450, 0, 0, 0, 0, 0, 450, 2],
      ['2026-05', 450, 0, 0, 150, 0, 0, 300, 2], // A 250 -> 100
      ['2026-06', 300, 0, 0, 100, 0, 0, 200, 2], // B's annual suspended: 200 -> 100
      ['2026-07', 200, 0, 0, 0, 100, 0, 100, 1], // A cancels: 100 -> 0
      ['2026-08', 100, 0, 100, 0, 0, 0, 200, 1], // the suspension ends Aug 10: B 100 -> 200
      ['2026-09', 200, 0, 0, 0, 0, 100, 300, 2], // A back from zero: reactivation
      ['2026-10', 300, 0, 0, 0, 0, 0, 300, 2],
      ['2026-11', 300, 0, 0, 100, 0, 0, 200, 2], // B cancels basic: 200 -> 100
      ['2026-12', 200, 0, 0, 0, 0, 0, 200, 2],
    ]);
    expect(mrr[8]).toMatchObject({ arr: 3600 }); // 12 × 300
    expect(mrr[11]).toMatchObject({ arr: 2400 }); // 12 × 200
  });

  it('holds start + new + expansion + reactivation − contraction − churned = end every month', () => {
    for (const r of mrr) {
      const n = (k: string) => Math.round((r[k] as number) * 100);
      expect(n('start_mrr') + n('new') + n('expansion') + n('reactivation') - n('contraction') - n('churned')).toBe(
        n('mrr'),
      );
    }
  });

  it('gives churn rates, gross revenue churn, NRR and ARPPU every month (USD)', () => {
    // Customer churn = churned ÷ start customers; gross revenue churn = (churned +
    // contraction) ÷ start MRR; NRR = (start + expansion − contraction − churned) ÷ start;
    // ARPPU = end MRR ÷ paying customers; rates to 4 places, null on a zero start.
    const pick = [
      'month',
      'start_customers',
      'churned_customers',
      'customer_churn_rate',
      'start_mrr',
      'churned',
      'contraction',
      'expansion',
      'gross_revenue_churn',
      'net_revenue_retention',
      'mrr',
      'customers',
      'arppu',
    ];
    expect(churn.map((r) => pick.map((k) => r[k]))).toEqual([
      // month, start cust., churned cust., churn rate, start MRR, churned, contraction, expansion, GRC, NRR, MRR, cust., ARPPU
      ['2026-01', 0, 0, null, 0, 0, 0, 0, null, null, 200, 2, 100], // nobody paid at the start; 200 / 2
      ['2026-02', 2, 0, 0, 200, 0, 0, 0, 0, 1, 200, 2, 100],
      ['2026-03', 2, 0, 0, 200, 0, 0, 250, 0, 2.25, 450, 2, 225], // NRR (200 + 250) / 200
      ['2026-04', 2, 0, 0, 450, 0, 0, 0, 0, 1, 450, 2, 225],
      ['2026-05', 2, 0, 0, 450, 0, 150, 0, 0.3333, 0.6667, 300, 2, 150], // 150 / 450; (450 − 150) / 450
      ['2026-06', 2, 0, 0, 300, 0, 100, 0, 0.3333, 0.6667, 200, 2, 100], // 100 / 300; 200 / 300
      ['2026-07', 2, 1, 0.5, 200, 100, 0, 0, 0.5, 0.5, 100, 1, 100], // 1 / 2; 100 / 200; 100 / 200
      ['2026-08', 1, 0, 0, 100, 0, 0, 100, 0, 2, 200, 1, 200], // NRR (100 + 100) / 100
      ['2026-09', 1, 0, 0, 200, 0, 0, 0, 0, 1, 300, 2, 150], // reactivation stays out of NRR; 300 / 2
      ['2026-10', 2, 0, 0, 300, 0, 0, 0, 0, 1, 300, 2, 150],
      ['2026-11', 2, 0, 0, 300, 0, 100, 0, 0.3333, 0.6667, 200, 2, 100], // 100 / 300; 200 / 300
      ['2026-12', 2, 0, 0, 200, 0, 0, 0, 0, 1, 200, 2, 100],
    ]);
  });

  it('keeps each currency apart, never converted (EUR)', () => {
    expect(eur.map((r) => [r.month, r.new, r.churned, r.mrr, r.customers])).toEqual([
      ['2026-01', 80, 0, 80, 1],
      ['2026-02', 0, 0, 80, 1],
      ['2026-03', 0, 0, 80, 1],
      ['2026-04', 0, 80, 0, 0], // C cancels Apr 10
      ['2026-05', 0, 0, 0, 0],
      ['2026-06', 0, 0, 0, 0],
      ['2026-07', 0, 0, 0, 0],
      ['2026-08', 0, 0, 0, 0],
      ['2026-09', 0, 0, 0, 0],
      ['2026-10', 0, 0, 0, 0],
      ['2026-11', 0, 0, 0, 0],
      ['2026-12', 0, 0, 0, 0],
    ]);
  });

  it('without a currency answers one row set per currency', async () => {
    const sets = (await t.get('/api/v3/_analytics/mrr?from=2026-09&to=2026-09').expect(200)).body.response as Json[];
    expect(sets.map((s) => s.currency)).toEqual(['USD', 'EUR']);
  });

  it('refuses bad parameters with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['from=2026-13', 'from'],
      ['to=soon', 'to'],
      ['from=2026-05&to=2026-01', 'from'],
      ['currency=XYZ', 'currency'],
      ['format=xml', 'format'],
    ]) {
      const res = await t.get(`/api/v3/_analytics/mrr?${query}`).expect(400);
      expect(res.body).toMatchObject({ status: 'Error', response: false });
      expect(res.body.message).toContain(`"${field}"`);
    }
    await t.get('/api/v3/_analytics/nothing').expect(400);
  });

  it('answers only with the API credential', async () => {
    await t.http.get('/api/v3/_analytics/mrr').expect(401);
  });
});
