import { EntityManager, MoreThan } from 'typeorm';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { deferInsertsIn, flushDeferredInserts } from 'src/database/deferred-inserts';
import { Tx } from 'src/database/unit-of-work';
import { InvoiceEvents } from 'src/invoices/invoice-events';
import { SubscriptionEvents } from 'src/subscriptions/subscription-events';
import { Catalog, createCatalog, createId } from './support/catalog-fixtures';
import * as make from './support/factories';
import { countStatements } from './support/statement-count';
import { itWithFastPaths } from './support/fast-paths';
import { createTestApp, TestApp } from './support/test-app';

/** Thrown to roll a transaction back once its events are read. */
class RolledBack extends Error {}

/**
 * A billing run's batch records invoice/insert and package/generate for all its cycles at
 * once (recordMany): it must write exactly what recording them one by one writes, in the
 * same order, with statements that do not grow with the batch.
 */
describe('invoice and package events recorded as a batch', () => {
  let t: TestApp;
  let c: Catalog;
  let invoices: number[];
  let packages: number[];
  const ctx = SYSTEM_CONTEXT;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-06-10T15:00:00Z'));
    c = await createCatalog(t);
    const withContact = await make.newCustomer(t, { company: 'Acme', superuser_first_name: 'Ann' });
    const other = await make.newCustomer(t, {
      company: '',
      superuser_email: 'bo@example.com',
      superuser_name: 'Bo Li',
    });
    const withoutContact = await createId(t, '/api/v3/customer', { company: 'Lonely' });
    const taxed = [{ item_id: c.plan, line_quantity: 1 }];
    const untaxed = [{ item_id: c.consulting, line_quantity: 2 }];
    invoices = [
      await make.newInvoiceOf(t, withContact, [...taxed, ...untaxed], { date: '2026-06-01' }),
      await make.newInvoiceOf(t, withoutContact, untaxed, { date: '2026-06-02' }),
      await make.newInvoiceOf(t, withContact, taxed, { date: '2026-06-03' }),
      await make.newInvoiceOf(t, other, [{ item_id: c.seats, line_quantity: 12 }], { date: '2026-06-04' }),
    ];
    await t
      .post('/api/v3/transaction', {
        customer_id: withContact,
        transaction_type: 'pay',
        gateway_method: 'check',
        amount: '40.00',
        applied_to: [{ invoice_id: invoices[0] }],
      })
      .expect(201);
    await t.post(`/api/v3/invoice/${invoices[2]}?action=print`).expect(200);
    packages = [
      await make.newSubscription(t, withContact, [{ item_id: c.plan }]),
      await make.newSubscription(t, withoutContact, [{ item_id: c.seats, line_quantity: 3 }]),
      await make.newSubscription(t, withContact, [{ item_id: c.seats, line_quantity: 11 }, { item_id: c.plan }]),
      await make.newSubscription(t, other, [{ item_id: c.plan }]),
    ];
  });
  afterAll(() => t.close());

  /**
   * Runs `work` in a transaction that is rolled back, and returns the events it recorded,
   * in order. The events no listener wants are written at its end, as a billing run's are.
   */
  async function recordedBy(work: (tx: Tx) => Promise<void>): Promise<DomainEvent[]> {
    let events: DomainEvent[] = [];
    await t.dataSource
      .transaction(async (manager: EntityManager) => {
        const [last] = await manager.find(DomainEvent, { order: { domain_event_id: 'DESC' }, take: 1 });
        deferInsertsIn(manager);
        await work({ manager, afterCommit: () => undefined });
        await flushDeferredInserts(manager);
        events = await manager.find(DomainEvent, {
          where: { domain_event_id: MoreThan(last?.domain_event_id ?? 0) },
          order: { domain_event_id: 'ASC' },
        });
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    return events;
  }

  const rows = (events: DomainEvent[]) => events.map((e) => [e.context_str, e.context_id, e.event, e.data]);

  async function statementsOf(work: (tx: Tx) => Promise<void>): Promise<number> {
    let count = 0;
    await recordedBy(async (tx) => {
      count = await countStatements(tx.manager, () => work(tx));
    });
    return count;
  }

  it.each(['insert', 'status'] as const)('invoice/%s: the batch writes what one by one writes', async (event) => {
    const events = t.app.get(InvoiceEvents);
    const order = [invoices[3], invoices[0], invoices[1], invoices[2]];
    const oneByOne = await recordedBy(async (tx) => {
      for (const id of order) await events.record(tx, ctx, id, event);
    });
    const batch = await recordedBy((tx) => events.recordMany(tx, ctx, order, event));

    expect(rows(batch)).toEqual(rows(oneByOne));
    expect(oneByOne.map((e) => e.context_id)).toEqual(order.map(String));
    // The cases the batch must tell apart are there: tax, money applied, a delivery, a contact or none.
    const data = oneByOne.map((e) => e.data as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(data[1].invoice).toMatchObject({ payments: 40 });
    expect(data[1].invoice.line_items[0]).toMatchObject({ tax_name: 'State tax' });
    expect(data[3].invoice.sent).toHaveLength(1);
    expect(data[2].customer).toMatchObject({ company: 'Lonely', superuser_id: null });
    if (event === 'status') {
      expect(data[0].user).toMatchObject({ name: 'Bo Li', customers: [{ company: '' }] });
      expect(data[1].user).toMatchObject({ first_name: 'Ann', customers: [{ company: 'Acme' }] });
      expect(data[2].user).toBeNull();
    } else {
      expect(data[0]).not.toHaveProperty('user');
    }
  });

  it('package events: the batch writes what one by one writes', async () => {
    const events = t.app.get(SubscriptionEvents);
    const order = [packages[2], packages[1], packages[3], packages[0]];
    const kinds = ['generate', 'update'] as const;
    const oneByOne = await recordedBy(async (tx) => {
      for (const id of order) await events.record(tx, ctx, id, [...kinds]);
    });
    const batch = await recordedBy((tx) => events.recordMany(tx, ctx, order, [...kinds]));

    expect(rows(batch)).toEqual(rows(oneByOne));
    expect(oneByOne.map((e) => [Number(e.context_id), e.event])).toEqual(
      order.flatMap((id) => kinds.map((k) => [id, k])),
    );
    const data = oneByOne.map((e) => e.data as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(data[0].package.line_items).toHaveLength(2);
    expect(data[0].user).toMatchObject({ first_name: 'Ann' });
    expect(data[2].user).toBeNull();
  });

  // The rows go in at the transaction's end, one INSERT per table (deferred inserts): with that
  // mechanism off (DB_FAST_PATHS) each row is a statement, and this test has nothing to test.
  itWithFastPaths('deferred-inserts')('sends as many statements for four invoices or packages as for two', async () => {
    const invoiceEvents = t.app.get(InvoiceEvents);
    const packageEvents = t.app.get(SubscriptionEvents);
    for (const event of ['insert', 'status'] as const) {
      const two = await statementsOf((tx) => invoiceEvents.recordMany(tx, ctx, invoices.slice(0, 2), event));
      const four = await statementsOf((tx) => invoiceEvents.recordMany(tx, ctx, invoices, event));
      const loop = await statementsOf(async (tx) => {
        for (const id of invoices) await invoiceEvents.record(tx, ctx, id, event);
      });
      expect(two).toBeGreaterThan(0);
      expect(four).toBe(two);
      expect(loop).toBeGreaterThan(four);
    }
    const two = await statementsOf((tx) => packageEvents.recordMany(tx, ctx, packages.slice(1, 3), ['generate']));
    const four = await statementsOf((tx) => packageEvents.recordMany(tx, ctx, packages, ['generate']));
    expect(two).toBeGreaterThan(0);
    expect(four).toBe(two);
  });
});
