import { DateTime } from 'luxon';
import request from 'supertest';
import { accountDate } from 'src/core/time/account-date';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { createId } from '../support/catalog-fixtures';
import { cloneSubscriptions } from '../support/due-subscriptions';
import { newCard } from '../support/factories';
import { killServer, scratchDatabase, ServerProcess, startServer } from '../support/server-process';
import { AUTH, createTestApp, TestApp } from '../support/test-app';

const ZONE = 'America/Chicago';
/** Subscriptions paying by card: the load of issue 43's check, a hundredth of them declining. */
const GOOD = 1980;
const DECLINING = 20;
/** 2026-03-01 10:00 in Chicago. */
const START = new Date('2026-03-01T16:00:00Z');
/** The first cycles start from 2026-03-02 10:00 in Chicago, SPREAD_MS apart: until 21:06 that day. */
const FIRST_CYCLE = new Date('2026-03-02T16:00:00Z');
const SPREAD_MS = 20_000;
/** Two months on: 2026-05-03 01:00 in Chicago, after every May 2 cycle. */
const TARGET = new Date('2026-05-03T06:00:00Z');

/**
 * The test clock driving several processes (issue 43, item 7): an API process and two worker
 * processes on MariaDB with Bull on Redis, all with TEST_CLOCK=true, so they read one clock
 * from the database. 2,000 subscriptions pay by card (the test gateway); one `POST /_clock`
 * moves two months: the API process runs the due work of each moment, the workers run the
 * jobs it queues (billing runs, collection passes) as of the moment stored. Every invoice is
 * charged once, and each declined one is retried on the dunning schedule (3, 7 and 14 days
 * after the first decline), once per retry.
 */
describe('the test clock across an API process and two workers', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let seed: TestApp | undefined;
  const servers: ServerProcess[] = [];
  let packages: { good: number[]; declining: number[] };

  beforeAll(async () => {
    db = await scratchDatabase('mysql');
    seed = await createTestApp({ ...db.env, TEST_CLOCK: 'true' }, { keepDatabase: true });
    seed.clock.set(START);
    const plan = await createId(seed, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
    const subscriptions = async (number: string, count: number): Promise<number[]> => {
      const customer = await createId(seed!, '/api/v3/customer', { company: 'Clock', invoice_delivery: 'print' });
      const card = await createId(seed!, '/api/v3/creditcard', { customer_id: customer, ...newCard({ number }) });
      const first = await createId(seed!, '/api/v3/package', {
        customer_id: customer,
        terms_id: 1, // due on receipt
        creditcard_id: card,
        line_items: [{ item_id: plan }],
      });
      return [first, ...(await cloneSubscriptions(seed!.dataSource, first, count - 1))];
    };
    packages = {
      good: await subscriptions('4242424242424242', GOOD),
      declining: await subscriptions('4000000000000002', DECLINING),
    };
    // Each first cycle starts at a second of its own, as subscriptions created one by one do:
    // the moves step through 2,000 due moments (gathered by the hour), not one.
    const all = [...packages.good, ...packages.declining];
    for (const [k, id] of all.entries()) {
      const at = new Date(FIRST_CYCLE.getTime() + k * SPREAD_MS);
      await seed.dataSource.manager.update(
        Subscription,
        { package_id: id },
        { start_datetime: at, next_invoice_datetime: at },
      );
    }
    // Each template's invoice of creation (Mar 1) is left out below: only the move's count.
    await seed.drainJobs();
    await seed.close();
    seed = undefined;
    const env = {
      ...db.env,
      TEST_CLOCK: 'true',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    };
    // One at a time: three compiling at once outlast the start timeout on a busy host.
    for (const role of ['api', 'worker', 'worker']) servers.push(await startServer({ ...env, APP_ROLE: role }));
  }, 1_200_000);

  afterAll(async () => {
    await seed?.close();
    for (const server of servers) await killServer(server);
    await db.drop();
  });

  it('moves two months in one call: each invoice charged once, each decline retried on schedule once', async () => {
    const [api] = servers;
    const started = performance.now();
    // The move's progress, as the API process logs it, once a minute (a slow host shows where it is).
    const lastProgress = () =>
      api
        .output()
        .split('\n')
        .filter((line) => line.includes('Moving the clock') || line.includes('Clock moved'))
        .pop();
    const progress = setInterval(() => process.stderr.write(`${lastProgress() ?? 'no progress logged yet'}\n`), 60_000);
    // supertest, not fetch: fetch gives up on an answer after 300 s.
    let res: request.Response;
    try {
      res = await request(api.url)
        .post('/api/v3/_clock')
        .set('Authorization', AUTH)
        .send({ datetime: TARGET.toISOString() });
    } finally {
      clearInterval(progress);
    }
    const moveMs = performance.now() - started;
    process.stderr.write(`${lastProgress() ?? 'no progress logged'}\n`);
    expect(res.status).toBe(200);
    expect((res.body as { response: { date: string } }).response.date).toBe('2026-05-03');

    // Every process reads the moved clock: the workers stamped their charges with it.
    const check = await createTestApp(
      { ...db.env, TEST_CLOCK: 'true', DB_NAME: db.env.DB_NAME },
      { keepDatabase: true },
    );
    try {
      expect(check.clock.now()).toEqual(TARGET);
      const rows: Array<{
        package_id: number;
        invoice_id: number;
        date: string;
        status_str: string;
        at: Date | string;
      }> = await check.dataSource.query(
        `SELECT i.package_id, i.invoice_id, DATE_FORMAT(i.date, '%Y-%m-%d') AS date, t.status_str, t.transaction_datetime AS at
             FROM invoice i
             LEFT JOIN transaction_applied a ON a.invoice_id = i.invoice_id
             LEFT JOIN payment_transaction t ON t.transaction_id = a.transaction_id
            WHERE i.date >= '2026-03-02' AND i.package_id IS NOT NULL
            ORDER BY i.invoice_id, t.transaction_id`,
      );
      const byInvoice = new Map<number, { pkg: number; date: string; charges: Array<[string, string]> }>();
      for (const r of rows) {
        const entry = byInvoice.get(r.invoice_id) ?? { pkg: r.package_id, date: String(r.date), charges: [] };
        if (r.status_str) entry.charges.push([r.status_str, accountDate(new Date(r.at), ZONE)]);
        byInvoice.set(r.invoice_id, entry);
      }
      // Cycles of Mar 2, Apr 2 and May 2 (10:00 in Chicago, all before the target).
      const cycles = ['2026-03-02', '2026-04-02', '2026-05-02'];
      const perSubscription = new Map<number, string[]>();
      for (const { pkg, date } of byInvoice.values())
        perSubscription.set(pkg, [...(perSubscription.get(pkg) ?? []), date]);
      expect(perSubscription.size).toBe(GOOD + DECLINING);
      expect([...perSubscription.values()].filter((dates) => dates.join() !== cycles.join())).toEqual([]);

      const good = new Set(packages.good);
      const wrong = [...byInvoice.entries()].filter(([, e]) => {
        if (good.has(e.pkg)) return JSON.stringify(e.charges) !== JSON.stringify([['ok-successful', e.date]]);
        // Declined on the day of issue, then 3, 7 and 14 days after, each once; the retries
        // of the May 2 invoice fall after the target.
        const first = DateTime.fromISO(e.date, { zone: ZONE });
        const days = e.date === '2026-05-02' ? [0] : [0, 3, 7, 14];
        const expected = days.map((d) => ['fail-declined', first.plus({ days: d }).toISODate()]);
        return JSON.stringify(e.charges) !== JSON.stringify(expected);
      });
      expect(wrong.slice(0, 5)).toEqual([]);
      // The time is reported, not asserted (no timed assertion in a test): issue 43 asks for
      // 30 days of 10,000 subscriptions in under 60 s; this is 62 days of 2,000.
      process.stderr.write(
        `test clock: 62 days of ${GOOD + DECLINING} subscriptions moved in ${Math.round(moveMs)} ms\n`,
      );
    } finally {
      await check.close();
    }
  }, 2_400_000);
});
