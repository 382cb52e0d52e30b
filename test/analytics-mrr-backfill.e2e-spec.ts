import { backfill } from 'src/analytics/migrations/1795793205642-mrr-history';
import { backfillMrrMonths } from 'src/analytics/migrations/1795810000000-mrr-rollup';
import { createId } from './support/catalog-fixtures';
import { newCustomer, newSubscription } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

/**
 * The migration builds the history of subscriptions that existed before it from their
 * rows: the same months and figures as recording them as they happened, for subscriptions
 * whose changes the rows still show (a start, a trial's end, a replaced line, a
 * suspension, a cancellation).
 */
describe('analytics: the migration builds existing subscriptions’ MRR history', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true' });
  });
  afterAll(() => t.close());

  it('gives the months the same figures as recording them live', async () => {
    t.clock.set(new Date('2026-01-05T18:00:00Z'));
    const item = (base: string, paycycle = 'mon') =>
      createId(t, '/api/v3/item', { name: `P${base}`, tiersets: [{ pricemodel: 'fla', paycycle, base }] });
    const [basic, pro, annual] = [await item('100'), await item('250'), await item('1200', 'yrl')];
    const a = await newSubscription(t, await newCustomer(t), [{ item_id: basic }]);
    const b = await newSubscription(t, await newCustomer(t), [{ item_id: annual }], { paycycle: 'yrl' });
    await newSubscription(t, await newCustomer(t), [{ item_id: basic, trial_days: 30 }]);
    await moveClock(t, '2026-02-10T18:00:00Z');
    const line = ((await t.get(`/api/v3/package/${a}`).expect(200)).body.response.line_items as Json[])[0];
    await t.post(`/api/v3/package/${a}?action=upgrade`, {
      line_items: [{ line_item_id: line.line_item_id, item_id: pro }],
    });
    await t.post(`/api/v3/package/${b}?action=suspend`, { suspendto_datetime: '2026-03-20' }).expect(200);
    await moveClock(t, '2026-04-10T18:00:00Z');
    await t.post(`/api/v3/package/${a}?action=cancel`, {}).expect(200);
    await moveClock(t, '2026-05-01T18:00:00Z');

    const report = async () =>
      (await t.get('/api/v3/_analytics/mrr?from=2026-01&to=2026-05&currency=USD').expect(200)).body.response;
    const live = await report();
    await t.dataSource.query('DELETE FROM mrr_change');
    await t.dataSource.query('DELETE FROM mrr_month');
    const runner = t.dataSource.createQueryRunner();
    try {
      await backfill(runner, t.clock.now());
      await backfillMrrMonths(runner);
    } finally {
      await runner.release();
    }
    expect(await report()).toEqual(live);
    // By hand: Jan 200 (A 100 + B 1200/12); Feb +150 (A's pro) +100 (C's trial ends Feb 4)
    // −100 (B suspended); Mar +100 (B back Mar 20); Apr −250 (A cancels).
    expect(live[0].rows.map((r: Json) => r.mrr)).toEqual([200, 350, 450, 200, 200]);
  }, 300_000);
});
