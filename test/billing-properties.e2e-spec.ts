import Decimal from 'decimal.js';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

const ZONE = 'America/Chicago';

/** One step of a run: the clock moves on `days` (and to `hour`), then each customer's action is taken. */
interface Step {
  days: number;
  hour: number;
  actions: Array<{ customer: number; action: Action }>;
}

/** Customers of a run, each with its own subscriptions, on one timeline (one clock, more cases per day moved). */
const CUSTOMERS = 3;

type Action =
  | { kind: 'create'; lines: number[] }
  | { kind: 'replace'; sub: number; line: number; item: number; when: 'now' | 'next'; prorate: boolean }
  | { kind: 'add'; sub: number; item: number; when: 'now' | 'next'; prorate: boolean }
  | { kind: 'remove'; sub: number; line: number; when: 'now' | 'next'; prorate: boolean }
  | { kind: 'suspend'; sub: number; days: number }
  | { kind: 'hold'; sub: number; days: number }
  | { kind: 'cancel'; sub: number; later: number; prorate: boolean }
  | { kind: 'usage'; sub: number; amount: number };

const when = fc.constantFrom<'now' | 'next'>('now', 'next');
const pick = fc.nat({ max: 9 });
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      lines: fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 3 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('replace' as const),
      sub: pick,
      line: pick,
      item: fc.nat({ max: 2 }),
      when,
      prorate: fc.boolean(),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      sub: pick,
      item: fc.nat({ max: 3 }),
      when,
      prorate: fc.boolean(),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('remove' as const), sub: pick, line: pick, when, prorate: fc.boolean() }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('suspend' as const), sub: pick, days: fc.integer({ min: 1, max: 50 }) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('hold' as const), sub: pick, days: fc.integer({ min: 1, max: 50 }) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      sub: pick,
      later: fc.integer({ min: 0, max: 40 }),
      prorate: fc.boolean(),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('usage' as const), sub: pick, amount: fc.integer({ min: 1, max: 500 }) }),
    weight: 2,
  },
);
/** About 18 months: 18 steps of 10 to 50 days (30 on average), one to three actions each. */
const run = fc.array(
  fc.record({
    days: fc.integer({ min: 10, max: 50 }),
    hour: fc.integer({ min: 0, max: 23 }),
    actions: fc.array(fc.record({ customer: fc.nat({ max: CUSTOMERS - 1 }), action }), { minLength: 1, maxLength: 3 }),
  }),
  { minLength: 18, maxLength: 18 },
);

/**
 * Billing stays right off the happy path (issue 37): random sequences of subscription
 * actions on random days under the test clock, over about 18 months per run (fixed seed).
 * After each step: no invoice below zero, no active subscription left behind a run, the
 * figure invariant of DESIGN §6 "Invoices" on every invoice, and the customer's `balance`
 * as recomputed from the rows.
 */
describe('billing properties (fast-check, fixed seed)', () => {
  let t: TestApp;
  let items: number[];

  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true' });
    t.clock.set(new Date('2026-01-01T15:00:00Z'));
    items = [
      await createId(t, '/api/v3/item', { name: 'Pro', pricemodel: { pricemodel: 'fla', base: '49.99' } }),
      await createId(t, '/api/v3/item', { name: 'Lite', pricemodel: { pricemodel: 'fla', base: '5.00' } }),
      await createId(t, '/api/v3/item', {
        name: 'Seats',
        tiersets: [
          {
            pricemodel: 'uni',
            paycycle: 'mon',
            setup: '10.00',
            tiers: [{ unit_from: 1, unit_to: null, amount: '3.10' }],
          },
        ],
      }),
      await createId(t, '/api/v3/item', {
        name: 'Calls',
        is_usage: true,
        tiersets: [{ pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: '0.07' }] }],
      }),
    ];
  }, 120_000);
  afterAll(() => t.close());

  const act = (id: number, name: string, body: Json) => t.post(`/api/v3/package/${id}?action=${name}`, body);
  const local = (at: Date) => DateTime.fromJSDate(at, { zone: ZONE });

  /** Takes one action; a refusal (400: a cancelled subscription, a line gone) is fine, never a 500. */
  async function take(customer: number, subs: number[], a: Action): Promise<void> {
    if (a.kind === 'create') {
      const res = await t.post('/api/v3/package', {
        customer_id: customer,
        line_items: a.lines.map((i) => ({ item_id: items[i], line_quantity: i === 2 ? 3 : 1 })),
      });
      expect(res.status).toBe(201);
      subs.push(res.body.response.id as number);
      return;
    }
    if (subs.length === 0) return;
    const id = subs[a.sub % subs.length];
    const lines = ((await t.get(`/api/v3/package/${id}`).expect(200)).body.response.line_items ?? []) as Json[];
    const line = lines.length ? lines[('line' in a ? a.line : 0) % lines.length] : undefined;
    const now = local(t.clock.now());
    let res;
    switch (a.kind) {
      case 'replace':
      case 'remove':
        if (!line) return;
        res = await act(id, 'upgrade', {
          subscribe_prorate_cycle: a.when,
          subscribe_prorate: a.prorate,
          cancel_prorate: a.prorate,
          line_items: [
            a.kind === 'replace'
              ? { line_item_id: line.line_item_id, item_id: items[a.item] }
              : { line_item_id: line.line_item_id, cancel: true },
          ],
        });
        break;
      case 'add':
        res = await act(id, 'upgrade', {
          subscribe_prorate_cycle: a.when,
          subscribe_prorate: a.prorate,
          line_items: [{ item_id: items[a.item] }],
        });
        break;
      case 'suspend':
        res = await act(id, 'suspend', { suspendto_datetime: now.plus({ days: a.days }).toISODate() });
        break;
      case 'hold':
        res = await act(id, 'hold', { holduntil_datetime: now.plus({ days: a.days }).toISODate() });
        break;
      case 'cancel':
        res = await act(id, 'cancel', {
          cancel_prorate: a.prorate,
          ...(a.later ? { cancel_date: now.plus({ days: a.later }).toISODate() } : {}),
        });
        break;
      case 'usage': {
        const metered = lines.find((l) => l.item_id === items[3]);
        if (!metered) return;
        res = await t.post('/api/v3/usage', {
          line_item_id: metered.line_item_id,
          usage_value: a.amount,
          from: now.toISODate(),
        });
        break;
      }
    }
    expect([a.kind, res.status < 500]).toEqual([a.kind, true]);
  }

  /** The invariants after a step (figures read through the API, recomputed from the rows). */
  async function check(customer: number, subs: number[], afterRun: boolean): Promise<void> {
    const negative = await t.dataSource.query('SELECT invoice_id, total FROM invoice WHERE total < 0');
    expect(negative).toEqual([]);
    if (afterRun && subs.length) {
      const now = t.clock.now();
      const list = (await t.get(`/api/v3/package?where=customer_id:EQUALS:${customer}&limit=500`).expect(200)).body
        .response as Json[];
      const behind = list.filter(
        (p) => p.package_status_state === 'a' && p.next_invoice_datetime && new Date(p.next_invoice_datetime) < now,
      );
      expect(behind.map((p) => [p.package_id, p.next_invoice_datetime])).toEqual([]);
    }
    const invoices = (await t.get(`/api/v3/invoice?where=customer_id:EQUALS:${customer}&limit=500`).expect(200)).body
      .response as Json[];
    const lineSums = new Map<number, Decimal>(
      (
        await t.dataSource.query<Array<{ id: number; amount: string | number }>>(
          'SELECT l.invoice_id AS id, l.line_subtotal AS amount FROM invoice_line l JOIN invoice i ON i.invoice_id = l.invoice_id WHERE i.customer_id = ?',
          [customer],
        )
      ).reduce(
        (m, r) => m.set(Number(r.id), (m.get(Number(r.id)) ?? new Decimal(0)).plus(String(r.amount))),
        new Map(),
      ),
    );
    const d = (x: unknown) => new Decimal(String(x));
    let due = new Decimal(0);
    for (const i of invoices) {
      const id = i.invoice_id as number;
      expect([id, d(i.total).isNegative()]).toEqual([id, false]);
      expect([id, (lineSums.get(id) ?? new Decimal(0)).toFixed(2)]).toEqual([id, d(i.subtotal).toFixed(2)]);
      expect([id, d(i.subtotal).plus(d(i.taxes)).toFixed(2)]).toEqual([id, d(i.total).toFixed(2)]);
      const applied = d(i.payments).plus(d(i.credits)).minus(d(i.refunds));
      expect([id, applied.toFixed(2)]).toEqual([id, d(i.applied).toFixed(2)]);
      if (!i.is_void) {
        expect([id, d(i.total).minus(applied).minus(d(i.writeoffs)).toFixed(2)]).toEqual([id, d(i.balance).toFixed(2)]);
        due = due.plus(d(i.total));
      }
    }
    // The customer's balance from the rows: invoiced (not void) − money applied to its invoices.
    const [{ applied }] = await t.dataSource.query<Array<{ applied: string | number }>>(
      `SELECT COALESCE(SUM(ta.applied), 0) AS applied FROM transaction_applied ta
         JOIN payment_transaction p ON p.transaction_id = ta.transaction_id
        WHERE ta.invoice_customer_id = ? AND p.status_str IN ('ok-successful', 'ok-pending')`,
      [customer],
    );
    const customerRow = (await t.get(`/api/v3/customer/${customer}`).expect(200)).body.response as Json;
    expect(d(customerRow.balance).toFixed(2)).toBe(due.minus(String(applied)).toFixed(2));
  }

  it('holds the invariants over random action sequences', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(run, async (steps: Step[]) => {
        const customers: Array<{ id: number; subs: number[] }> = [];
        for (let c = 0; c < CUSTOMERS; c++) {
          customers.push({ id: await createId(t, '/api/v3/customer', { company: `Random ${++n}` }), subs: [] });
        }
        for (const step of steps) {
          const to = local(t.clock.now()).plus({ days: step.days }).set({ hour: step.hour, minute: 0, second: 0 });
          await moveClock(t, to.toUTC().toISO()!);
          for (const c of customers) await check(c.id, c.subs, true);
          for (const { customer, action: a } of step.actions) {
            const c = customers[customer];
            await take(c.id, c.subs, a);
            await check(c.id, c.subs, false);
          }
        }
        // The run went off the happy path: credit memos were made and spent.
        const [{ memos }] = await t.dataSource.query<Array<{ memos: number | string }>>(
          "SELECT COUNT(*) AS memos FROM payment_transaction WHERE transaction_type = 'cre'",
        );
        expect(Number(memos)).toBeGreaterThan(0);
        // Ended: nothing of this run bills on during a next one.
        for (const c of customers) for (const id of c.subs) await act(id, 'cancel', {});
      }),
      { seed: 37, numRuns: 1, endOnFailure: true },
    );
    // About 550 days of due work under the test clock: minutes on a loaded MariaDB.
  }, 1_500_000);
});
