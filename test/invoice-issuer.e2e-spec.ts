import Decimal from 'decimal.js';
import { EntityTarget, ObjectLiteral } from 'typeorm';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { Revision } from 'src/core/revisions/revision.entity';
import { Customer } from 'src/customers/entities/customer.entity';
import { UnitOfWork } from 'src/database/unit-of-work';
import { InvoiceLine } from 'src/invoices/entities/invoice-line.entity';
import { InvoiceSchedule } from 'src/invoices/entities/invoice-schedule.entity';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { InvoiceDraft, InvoiceIssuer } from 'src/invoices/invoice-issuer';
import { PricingInputsLoader } from 'src/invoices/pricing-inputs-loader';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { startReceiver, WebhookReceiver } from './support/webhook-receiver';
import { Json } from './support/json';

const TABLES: Array<EntityTarget<ObjectLiteral>> = [
  Invoice,
  InvoiceLine,
  InvoiceSchedule,
  Revision,
  DomainEvent,
  WebhookDelivery,
];

describe('InvoiceIssuer', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let issuer: InvoiceIssuer;
  let uow: UnitOfWork;
  let customer: Customer;
  let plan: number;
  let meter: number;

  const counts = async (): Promise<number[]> =>
    Promise.all(TABLES.map((table) => t.dataSource.getRepository(table).count()));
  const draft = (lines: InvoiceDraft['lines'], packageId: number | null = null): InvoiceDraft => ({
    customer,
    date: '2026-06-01',
    termsId: 3,
    currencyId: 1,
    packageId,
    lines,
  });

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    receiver = await startReceiver();
    t.clock.set(new Date('2026-06-01T15:00:00Z'));
    await t.post('/api/v3/_resthook', { target_url: receiver.url, event: '*' }).expect(201);
    plan = await createId(t, '/api/v3/item', {
      name: 'Plan',
      pricemodel: { pricemodel: 'fla', base: 30, setup: 10, paycycle: 'mon' },
    });
    meter = await createId(t, '/api/v3/item', { name: 'Calls', pricemodel: { pricemodel: 'fla', base: 2 } });
    const customerId = await createId(t, '/api/v3/customer', { company: 'Issued' });
    customer = await t.dataSource.getRepository(Customer).findOneByOrFail({ customer_id: customerId });
    issuer = t.app.get(InvoiceIssuer);
    uow = t.app.get(UnitOfWork);
    await t.drainJobs();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it("leaves nothing behind when the caller's transaction rolls back", async () => {
    const before = await counts();
    const deliveredBefore = receiver.received.length;
    await expect(
      uow.run(async (tx) => {
        await issuer.issue(tx, SYSTEM_CONTEXT, draft([{ origin: 'manual', item_id: plan }]));
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('the caller changed its mind');
    await t.drainJobs();
    expect(await counts()).toEqual(before);
    expect(receiver.received.length).toBe(deliveredBefore);

    // The same issue committed writes one of each (the counts above can see it).
    const id = await uow.run((tx) => issuer.issue(tx, SYSTEM_CONTEXT, draft([{ origin: 'manual', item_id: plan }])));
    await t.drainJobs();
    const [invoices, lines, schedules, revisions, events, deliveries] = await counts();
    expect([invoices, lines, schedules, revisions, events, deliveries]).toEqual([
      before[0] + 1,
      before[1] + 2, // the plan and its setup line
      before[2] + 1,
      before[3] + 1,
      before[4] + 1,
      before[5] + 1,
    ]);
    expect(receiver.received.filter((r) => r.body.context_str === 'invoice' && r.body.context_id === id)).toHaveLength(
      1,
    );
  });

  it('issues lines by origin, with the pricing inputs loaded once for several drafts', async () => {
    const catalog = await t.app.get(PricingInputsLoader).catalog(t.dataSource.manager, [plan, meter]);
    const june = { from: new Date('2026-06-01T05:00:00Z'), to: new Date('2026-07-01T05:00:00Z') };
    const may = { from: new Date('2026-05-01T05:00:00Z'), to: new Date('2026-06-01T05:00:00Z') };
    const [first, second] = await uow.run(async (tx) => [
      await issuer.issue(
        tx,
        SYSTEM_CONTEXT,
        draft(
          [
            { origin: 'recurring', item_id: plan, period: june, package_line_id: 7 },
            { origin: 'setup', item_id: plan, package_line_id: 7 },
            { origin: 'usage', item_id: meter, line_quantity: new Decimal(5), period: may },
            { origin: 'proration', item_id: plan, prorate: new Decimal('0.5'), period: june },
            { origin: 'trial', item_id: plan, period: june },
          ],
          41,
        ),
        catalog,
      ),
      await issuer.issue(
        tx,
        SYSTEM_CONTEXT,
        draft([{ origin: 'recurring', item_id: plan, period: june }], 42),
        catalog,
      ),
    ]);

    const invoice = (await t.get(`/api/v3/invoice/${first}`).expect(200)).body.response as Json;
    expect(invoice).toMatchObject({ package_id: 41, total: 65, sum_usage: 10, due_date: '2026-07-01' });
    const lines = invoice.line_items as Json[];
    expect(lines.map((l) => [l.line_subtotal, l.is_recurring, l.is_setup, l.is_usage, l.is_free])).toEqual([
      [30, true, false, false, false],
      [10, false, true, false, false],
      [10, false, false, true, false],
      [15, true, false, false, false],
      [0, true, false, false, true],
    ]);
    expect(lines[0]).toMatchObject({ package_line_id: 7, line_prorate: null, usage_from: null });
    expect(lines[1]).toMatchObject({ descrip: 'Setup: Plan', line_rate: 10 });
    expect(lines[2]).toMatchObject({ usage_from: '2026-05-01T00:00:00-05:00', usage_to: '2026-06-01T00:00:00-05:00' });
    expect(lines[3]).toMatchObject({ line_prorate: 0.5 });
    // What a line bills and its period stay internal: SPEC names neither.
    for (const line of lines) expect(Object.keys(line)).not.toEqual(expect.arrayContaining(['line_origin']));
    expect(Object.keys(lines[0])).not.toContain('period_from');

    const stored = await t.dataSource.getRepository(InvoiceLine).find({
      where: { invoice_id: first },
      order: { sort_order: 'ASC' },
    });
    expect(stored.map((l) => l.line_origin)).toEqual(['recurring', 'setup', 'usage', 'proration', 'trial']);
    expect(stored[0]).toMatchObject({ period_from: june.from, period_to: june.to });
    expect((await t.get(`/api/v3/invoice/${second}`).expect(200)).body.response).toMatchObject({
      package_id: 42,
      total: 30,
    });
  });
});
