import fc from 'fast-check';
import { createId } from './support/catalog-fixtures';
import { newCustomer, newSubscription } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

const DAY_MS = 86_400_000;

/** One step of a random history: wait some days, then do something to a subscription. */
const step = fc.record({
  days: fc.integer({ min: 1, max: 12 }),
  kind: fc.constantFrom('subscribe', 'subscribe', 'upgrade', 'cancel', 'suspend'),
  pick: fc.nat(),
  item: fc.nat(),
  trial: fc.constantFrom(0, 0, 10),
});

type Step = { days: number; kind: string; pick: number; item: number; trial: number };

/**
 * The reconciliation identity as a property: over random histories of subscribes,
 * upgrades, cancellations, suspensions and trials moved through by the test clock, every
 * month and currency has start + new + expansion + reactivation − contraction − churned
 * = end, each month starts where the last ended, and this month's end is the sum of the
 * subscriptions' MRR as last recorded.
 */
describe('analytics: the MRR reconciliation identity over random histories', () => {
  let t: TestApp;
  let items: Array<{ id: number; currency: number; paycycle: string }>;
  let customers: number[];
  const subs: Array<{ id: number; currency: number }> = [];

  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true' });
    t.clock.set(new Date('2026-01-03T18:00:00Z'));
    const item = async (base: string, paycycle: string, currency: number) => ({
      id: await createId(t, '/api/v3/item', {
        name: `Plan ${base} ${paycycle} ${currency}`,
        tiersets: [{ pricemodel: 'fla', paycycle, base, currency_id: currency }],
      }),
      currency,
      paycycle,
    });
    items = [
      await item('10', 'mon', 1),
      await item('33.33', 'mon', 1),
      await item('1000', 'yrl', 1),
      await item('70', 'qtr', 1),
      await item('25', 'mon', 2),
    ];
    customers = [];
    for (let i = 0; i < 4; i++) customers.push(await newCustomer(t, { company: `P${i}` }));
  }, 60_000);
  afterAll(() => t.close());

  const play = async (s: Step) => {
    await moveClock(t, new Date(t.clock.now().getTime() + s.days * DAY_MS));
    const sub = subs.length ? subs[s.pick % subs.length] : undefined;
    const act = (id: number, action: string, body: Json) => t.post(`/api/v3/package/${id}?action=${action}`, body);
    if (s.kind === 'subscribe' || !sub) {
      const item = items[s.item % items.length];
      const id = await newSubscription(
        t,
        customers[s.pick % customers.length],
        [{ item_id: item.id, ...(s.trial ? { trial_days: s.trial } : {}) }],
        { paycycle: item.paycycle, currency_id: item.currency },
      );
      subs.push({ id, currency: item.currency });
    } else if (s.kind === 'upgrade') {
      const lines = (await t.get(`/api/v3/package/${sub.id}`).expect(200)).body.response.line_items as Json[];
      const live = lines.find((l) => !l.cancel_datetime);
      const same = items.filter((i) => i.currency === sub.currency);
      // Refused (a cancelled subscription, say) is part of a random history too.
      if (live)
        await act(sub.id, 'upgrade', {
          line_items: [{ line_item_id: live.line_item_id, item_id: same[s.item % same.length].id }],
        });
    } else if (s.kind === 'cancel') await act(sub.id, 'cancel', {});
    else {
      const to = new Date(t.clock.now().getTime() + (5 + (s.item % 30)) * DAY_MS).toISOString().slice(0, 10);
      await act(sub.id, 'suspend', { suspendto_datetime: to });
    }
  };

  it('holds for every month and currency', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 6 }), async (steps) => {
        for (const s of steps) await play(s);
        const sets = (await t.get('/api/v3/_analytics/mrr?from=2026-01&to=2027-12').expect(200)).body
          .response as Array<{
          currency: string;
          rows: Json[];
        }>;
        const cents = (v: unknown) => Math.round((v as number) * 100);
        const recorded = await t.dataSource.query(
          `SELECT c.currency_id, c.mrr FROM mrr_change c
           JOIN (SELECT package_id, MAX(mrr_change_id) AS id FROM mrr_change GROUP BY package_id) l ON l.id = c.mrr_change_id`,
        );
        const thisMonth = (await t.get('/api/v3/_clock').expect(200)).body.response.date.slice(0, 7) as string;
        for (const set of sets) {
          let previous = 0;
          for (const r of set.rows) {
            const [start, end] = [cents(r.start_mrr), cents(r.mrr)];
            expect(start).toBe(previous);
            expect(
              start +
                cents(r.new) +
                cents(r.expansion) +
                cents(r.reactivation) -
                cents(r.contraction) -
                cents(r.churned),
            ).toBe(end);
            previous = end;
          }
          const currencyId = set.currency === 'USD' ? 1 : 2;
          const now = recorded
            .filter((r: Json) => Number(r.currency_id) === currencyId)
            .reduce((sum: number, r: Json) => sum + cents(Number(r.mrr)), 0);
          expect(cents(set.rows.find((r) => r.month === thisMonth)!.mrr)).toBe(now);
        }
      }),
      { numRuns: 3 },
    );
  }, 600_000);
});
