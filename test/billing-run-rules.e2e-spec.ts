import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import { BillingRun } from 'src/billing-runs/runs/billing-run';
import { BillingRunSummary } from 'src/billing-runs/runs/run-summary';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

const ZONE = 'America/Chicago';
const TOKEN = 'usage-shared-token';

/** What the fake usage URL answers: a status, a body, and optionally a delay (a timeout). */
type UsageReply = { status: number; body: string; delayMs?: number };

/** A fake USAGE_URL on 127.0.0.1: records each request and answers as `reply` says for it. */
async function startUsageServer(reply: (body: Json) => UsageReply) {
  const received: Json[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
      received.push(body);
      const answer = reply(body);
      const send = () => res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body);
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/usage`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function wall(date: string, time = '10:00:00'): string {
  return DateTime.fromISO(`${date}T${time}`, { zone: ZONE }).toISO({ suppressMilliseconds: true })!;
}

/**
 * The rules of a billing run (DESIGN §6 "Billing runs", "Usage"): each cycle once, held
 * and suspended subscriptions skipped without back-billing, one failure never stopping the
 * rest, and usage pulled from USAGE_URL before the unit, counted only from a valid 200.
 */
describe('billing run rules', () => {
  let t: TestApp;
  let usageServer: Awaited<ReturnType<typeof startUsageServer>>;
  /** Answers of the usage URL by package id (default: 200 with 12 units). */
  const usageReplies = new Map<number, UsageReply>();
  let plan: number;
  let calls: number;
  let customer: number;

  const run = (): Promise<BillingRunSummary> => t.app.get(BillingRun).run(t.clock.now());
  const invoiceDates = async (pkg: number): Promise<string[]> =>
    (
      (await t.get(`/api/v3/invoice?where=package_id:EQUALS:${pkg}&order=invoice_id:ASC&limit=500`).expect(200)).body
        .response as Json[]
    ).map((i) => i.date as string);
  const newSubscription = async (lines: Json[], fields: Json = {}): Promise<number> =>
    createId(t, '/api/v3/package', { customer_id: customer, line_items: lines, ...fields });
  const failureOf = (summary: BillingRunSummary, pkg: number) => summary.failures.find((f) => f.packageId === pkg);

  beforeAll(async () => {
    usageServer = await startUsageServer(
      (body) =>
        usageReplies.get(Number(body.package.package_id)) ?? {
          status: 200,
          body: JSON.stringify({ line_items: [{ usage_amount: 12 }] }),
        },
    );
    t = await createTestApp({
      TEST_CLOCK: 'true',
      USAGE_URL: usageServer.url,
      // Long enough that a loaded machine's answer of the fake URL never times out by accident.
      USAGE_URL_TIMEOUT_MS: '2000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_SECURITY_TOKEN: TOKEN,
    });
    // 2026-03-01 10:00 in Chicago (UTC-6).
    t.clock.set(new Date('2026-03-01T16:00:00Z'));
    plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
    calls = await createId(t, '/api/v3/item', {
      name: 'API calls',
      units: 'call',
      is_usage: true,
      tiersets: [{ pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: '0.50' }] }],
    });
    customer = await createId(t, '/api/v3/customer', { company: 'Rules', external_key: 'rules-co' });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await usageServer.close();
  });

  it('bills a cycle once: a repeated run is a no-op, and the cycle key refuses a second invoice', async () => {
    const pkg = await newSubscription([{ item_id: plan }]);
    const first = await run();
    expect(first.failures).toEqual([]);
    expect(await invoiceDates(pkg)).toEqual(['2026-03-01']);
    const again = await run();
    expect(again.invoices).toBe(0);
    expect(await invoiceDates(pkg)).toEqual(['2026-03-01']);

    // A stale state that points back at a billed cycle (as a crashed writer could leave):
    // the (subscription, cycle start) key fails that unit, nothing is billed twice.
    const billedAt = new Date('2026-03-01T16:00:00Z');
    await t.dataSource
      .createQueryBuilder()
      .update('package')
      .set({ next_invoice_datetime: billedAt })
      .where('package_id = :pkg', { pkg })
      .execute();
    const stale = await run();
    expect(failureOf(stale, pkg)).toBeDefined();
    expect(await invoiceDates(pkg)).toEqual(['2026-03-01']);
    await t.dataSource
      .createQueryBuilder()
      .update('package')
      .set({ next_invoice_datetime: new Date('2026-04-01T15:00:00Z') })
      .where('package_id = :pkg', { pkg })
      .execute();
  }, 120_000);

  it('skips held and suspended subscriptions and resumes them at the next cycle start, without back-billing', async () => {
    const held = await newSubscription([{ item_id: plan }]);
    const suspended = await newSubscription([{ item_id: plan }]);
    const indefinitely = await newSubscription([{ item_id: plan }]);
    await run();
    // Held until Apr 15: the Apr 1 cycle is not billed; billing resumes on May 1.
    await t.post(`/api/v3/package/${held}?action=hold`, { holduntil_datetime: '2026-04-15 00:00:00' }).expect(200);
    // Suspended Mar 20 to Apr 20 (the Apr 1 cycle falls inside): resumes May 1.
    await t
      .post(`/api/v3/package/${suspended}?action=suspend`, {
        suspendfrom_datetime: '2026-03-20 00:00:00',
        suspendto_datetime: '2026-04-20 00:00:00',
      })
      .expect(200);
    // Suspended from now on, without an end.
    await t.post(`/api/v3/package/${indefinitely}?action=suspend`, {}).expect(200);

    await moveClock(t, wall('2026-05-15'));
    expect(await invoiceDates(held)).toEqual(['2026-03-01', '2026-05-01']);
    expect(await invoiceDates(suspended)).toEqual(['2026-03-01', '2026-05-01']);
    expect(await invoiceDates(indefinitely)).toEqual(['2026-03-01']);

    // Back from an indefinite suspension on May 15: the next cycle is Jun 1, nothing for Apr or May.
    await t.post(`/api/v3/package/${indefinitely}?action=unsuspend`, {}).expect(200);
    await moveClock(t, wall('2026-06-02'));
    expect(await invoiceDates(indefinitely)).toEqual(['2026-03-01', '2026-06-01']);
    expect(await invoiceDates(held)).toEqual(['2026-03-01', '2026-05-01', '2026-06-01']);
  }, 300_000);

  it('pulls usage from USAGE_URL with the shared token; a failing subscription is retried and never stops the rest', async () => {
    const good = await newSubscription([{ item_id: calls, external_key: 'good-calls' }, { item_id: plan }]);
    const failing = await newSubscription([{ item_id: calls }, { item_id: plan }]);
    await run();
    expect(await invoiceDates(good)).toEqual(['2026-06-02']);
    expect(usageServer.received.filter((b) => [good, failing].includes(Number(b.package.package_id)))).toEqual([]);

    usageReplies.set(failing, { status: 500, body: JSON.stringify({ message: 'meter offline' }) });
    await moveClock(t, wall('2026-07-02', '12:00:00'));
    // The good one has its usage line (12 calls at 0.50); the failing one waits for the next run.
    const goodInvoices = (
      await t.get(`/api/v3/invoice?where=package_id:EQUALS:${good}&order=invoice_id:ASC`).expect(200)
    ).body.response as Json[];
    expect(goodInvoices.map((i) => i.date)).toEqual(['2026-06-02', '2026-07-02']);
    const july = (await t.get(`/api/v3/invoice/${goodInvoices[1].invoice_id}`).expect(200)).body.response;
    expect(july.total).toBe(16);
    const usageLine = (july.line_items as Json[]).find((l) => l.is_usage)!;
    expect(usageLine).toMatchObject({
      line_usage: 12,
      line_total: 6,
      // Usage periods are account-zone days: from the cycle's start date to the next one's.
      usage_from: wall('2026-06-02', '00:00:00'),
      usage_to: wall('2026-07-02', '00:00:00'),
    });
    expect(await invoiceDates(failing)).toEqual(['2026-06-02']);

    const asked = usageServer.received.find((b) => Number(b.package.package_id) === good)!;
    expect(asked).toMatchObject({
      security_token: TOKEN,
      from_datetime: '2026-06-02 00:00:00',
      to_datetime: '2026-07-02 00:00:00',
      customer: { customer_id: customer, external_key: 'rules-co' },
      package: { package_id: good },
      this_line_item: { external_key: 'good-calls', item_name: 'API calls', item_units: 'call' },
    });

    // Every kind of bad answer leaves the cycle unbilled, with the reason in the run's failures.
    const cases: Array<[UsageReply, string]> = [
      [{ status: 500, body: '{"message":"meter offline"}' }, 'answered 500'],
      [{ status: 200, body: '{"line_items":[{"usage_amount":3}]}', delayMs: 10_000 }, 'no answer within'],
      [{ status: 200, body: 'not json' }, 'without valid JSON'],
      [{ status: 200, body: '{}' }, 'non-empty "line_items"'],
      [{ status: 200, body: '{"line_items":[]}' }, 'non-empty "line_items"'],
      [{ status: 200, body: '{"line_items":[{"usage_amount":-4}]}' }, 'negative usage amount'],
      [{ status: 200, body: '{"line_items":[{"usage_amount":"lots"}]}' }, 'numeric'],
    ];
    for (const [reply, reason] of cases) {
      usageReplies.set(failing, reply);
      const summary = await run();
      expect({ reply, failure: failureOf(summary, failing)?.reason }).toEqual({
        reply,
        failure: expect.stringContaining(reason),
      });
      expect(await invoiceDates(failing)).toEqual(['2026-06-02']);
    }

    // The next run after the receiver recovers bills the cycle, with the usage it gives.
    usageReplies.set(failing, { status: 200, body: '{"line_items":[{"usage_amount":"4"}]}' });
    const recovered = await run();
    expect(failureOf(recovered, failing)).toBeUndefined();
    expect(await invoiceDates(failing)).toEqual(['2026-06-02', '2026-07-02']);
  }, 300_000);

  it('the invoice action asks USAGE_URL before its unit: a failure is a 400 that bills nothing', async () => {
    const pkg = await newSubscription([{ item_id: calls }, { item_id: plan }]);
    await run();
    const ids = async () =>
      (
        (await t.get(`/api/v3/invoice?where=package_id:EQUALS:${pkg}&order=invoice_id:ASC`).expect(200)).body
          .response as Json[]
      ).map((i) => i.invoice_id as number);
    expect(await ids()).toHaveLength(1);

    usageReplies.set(pkg, { status: 500, body: '{"message":"meter offline"}' });
    const refused = await t.post(`/api/v3/package/${pkg}?action=invoice`, {}).expect(400);
    expect(refused.body.message).toContain('answered 500');
    expect(await ids()).toHaveLength(1);

    usageReplies.set(pkg, { status: 200, body: '{"line_items":[{"usage_amount":8}]}' });
    await t.post(`/api/v3/package/${pkg}?action=invoice`, {}).expect(200);
    const invoiceIds = await ids();
    expect(invoiceIds).toHaveLength(2);
    const second = (await t.get(`/api/v3/invoice/${invoiceIds[1]}`).expect(200)).body.response;
    expect((second.line_items as Json[]).find((l) => l.is_usage)).toMatchObject({ line_usage: 8, line_total: 4 });
    expect(second.total).toBe(14);
  }, 120_000);

  it('stops billing a cancelled subscription: at once, or from its cancel date on', async () => {
    const now = await newSubscription([{ item_id: plan }]);
    const later = await newSubscription([{ item_id: plan }]);
    await run();
    await t.post(`/api/v3/package/${now}?action=cancel`, {}).expect(200);
    await t.post(`/api/v3/package/${later}?action=cancel`, { cancel_date: '2026-08-20' }).expect(200);
    await moveClock(t, wall('2026-10-15'));
    expect(await invoiceDates(now)).toEqual(['2026-07-02']);
    // The Aug 2 cycle starts before the cancel date and is billed; Sep 2 and Oct 2 are not.
    expect(await invoiceDates(later)).toEqual(['2026-07-02', '2026-08-02']);
  }, 300_000);

  it('a dry run writes nothing, not even the resume after a suspension', async () => {
    const pkg = await newSubscription([{ item_id: plan }]);
    await run();
    await t
      .post(`/api/v3/package/${pkg}?action=suspend`, {
        suspendfrom_datetime: '2026-10-16 00:00:00',
        suspendto_datetime: '2026-11-20 00:00:00',
      })
      .expect(200);
    const next = async () => (await t.get(`/api/v3/package/${pkg}`).expect(200)).body.response.next_invoice_datetime;
    expect(await next()).toBe(wall('2026-11-15'));
    // Straight to Nov 21 (no due work on the way): the Nov 15 cycle fell in the suspension.
    t.clock.set(new Date(wall('2026-11-21')));
    const dry = await t.app.get(BillingRun).run(t.clock.now(), { dryRun: true });
    expect(dry.failures).toEqual([]);
    expect(await next()).toBe(wall('2026-11-15'));
    await run();
    expect(await next()).toBe(wall('2026-12-15'));
    expect(await invoiceDates(pkg)).toEqual(['2026-10-15']);
  }, 120_000);
});
