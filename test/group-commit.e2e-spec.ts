import { performance } from 'node:perf_hooks';
import { DueWorkScheduler } from 'src/core/schedule/due-work-scheduler';
import { ApiError } from 'src/core/envelope/api-error';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { EventRecorder } from 'src/core/events/event-recorder';
import { RequestContext } from 'src/core/context/request-context';
import { Revision } from 'src/core/revisions/revision.entity';
import { CustomersService } from 'src/customers/customers.service';
import { CreateCustomerDto } from 'src/customers/dto/create-customer.dto';
import { insertRow } from 'src/database/insert-row';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { WebhooksService } from 'src/webhooks/webhooks.service';
import { In } from 'typeorm';
import { fastPath } from 'src/database/fast-paths';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Writes queued in one turn of the event loop share a COMMIT (group commit, each in a
 * savepoint) on SQLite and MySQL/MariaDB alike. What each caller sees must be what it would
 * see with a transaction of its own.
 */
describe('group commit', () => {
  let t: TestApp;
  let customers: CustomersService;
  let queryRunners: jest.SpyInstance;
  const ctx: RequestContext = {
    integrationId: null,
    ip: '203.0.113.7',
    onBehalfAddr: null,
    onBehalfDetails: null,
    sendEmails: false,
    sendWebhooks: true,
  };

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    customers = t.app.get(CustomersService);
    // Background due work (the webhook sweeper's tick) would open transactions of its own.
    t.app.get(DueWorkScheduler).stop();
    await t.drainJobs();
  });
  beforeEach(() => {
    queryRunners = jest.spyOn(t.dataSource, 'createQueryRunner');
  });
  afterEach(() => {
    queryRunners.mockRestore();
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (company: string, externalKey?: string) =>
    customers.create(ctx, Object.assign(new CreateCustomerDto(), { company, external_key: externalKey }));

  async function historyOf(customerIds: number[]): Promise<{ revisions: number[]; events: string[] }> {
    const revisions = await t.dataSource.manager.find(Revision, {
      where: { context_str: 'customer', context_id: In(customerIds) },
    });
    const events = await t.dataSource.manager.find(DomainEvent, {
      where: { context_str: 'customer', context_id: In(customerIds.map(String)) },
    });
    return {
      revisions: revisions.map((r) => r.context_id).sort((a, b) => a - b),
      events: events.map((e) => `${e.context_id} ${e.event}`).sort(),
    };
  }

  it('commits writes of one turn together, once each', async () => {
    // The group's 20 ms cap reads performance.now(): held still, so a slow moment of a loaded
    // machine cannot close the group before the fourth write joins it.
    const held = jest.spyOn(performance, 'now').mockReturnValue(performance.now());
    const ids = await Promise.allSettled([create('Group A'), create('Group B'), create('Group C'), create('Group D')]);
    // One transaction for the four, each in a savepoint of its own (with group commit off,
    // DB_FAST_PATHS, a transaction each).
    held.mockRestore();
    expect(queryRunners).toHaveBeenCalledTimes(fastPath('group-commit') ? 1 : 4);
    const created = ids.map((o) => (o.status === 'fulfilled' ? o.value : NaN));
    expect(created.every(Number.isInteger)).toBe(true);
    const history = await historyOf(created);
    expect(history.revisions).toEqual([...created].sort((a, b) => a - b));
    expect(history.events).toEqual(created.map((id) => `${id} insert`).sort());
  });

  it('fails only the write with a duplicate external key; the others are kept once each', async () => {
    await create('Holder', 'group-taken');
    queryRunners.mockClear();
    const outcomes = await Promise.allSettled([
      create('Before', 'group-before'),
      create('Duplicate', 'group-taken'),
      create('After', 'group-after'),
    ]);
    expect(outcomes[0].status).toBe('fulfilled');
    expect(outcomes[2].status).toBe('fulfilled');
    const refused = outcomes[1].status === 'rejected' ? (outcomes[1].reason as ApiError) : null;
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused?.code).toBe(400);
    expect(refused?.message).toContain('external_key');
    const kept = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const history = await historyOf(kept);
    expect(history.revisions).toEqual([...kept].sort((a, b) => a - b));
    expect(history.events).toEqual(kept.map((id) => `${id} insert`).sort());
    for (const company of ['Before', 'After']) {
      const found = await t.get(`/api/v3/customer/_count?where=company:EQUALS:${company}`).expect(200);
      expect(found.body.response).toBe(1);
    }
    expect((await t.get('/api/v3/customer/_count?where=company:EQUALS:Duplicate').expect(200)).body.response).toBe(0);
  });

  it('lets exactly one of two writes in the same turn take a new external key', async () => {
    const outcomes = await Promise.allSettled([create('First', 'group-race'), create('Second', 'group-race')]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const found = await t.get('/api/v3/customer/external_key:group-race').expect(200);
    const winner = outcomes.findIndex((o) => o.status === 'fulfilled');
    expect(found.body.response.company).toBe(winner === 0 ? 'First' : 'Second');
  });

  it('never runs a write twice, whatever happens to the writes queued beside it', async () => {
    const uow = t.app.get(UnitOfWork);
    const runs = { first: 0, last: 0 };
    const writeNote = (note: string) => (tx: Tx) =>
      insertRow(tx.manager, Revision, {
        context_str: 'group-test',
        context_id: 1,
        revision_datetime: new Date(),
        revision_note: note,
      });
    const outcomes = await Promise.allSettled([
      uow.run((tx) => (runs.first++, writeNote('first')(tx))),
      uow.run(() => Promise.reject(new Error('this write fails'))),
      uow.run((tx) => (runs.last++, writeNote('last')(tx))),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // A neighbour's failure undoes only that neighbour (issue 17 point 4: it used to run the
    // MySQL group's other writes again).
    expect(runs).toEqual({ first: 1, last: 1 });
    const notes = await t.dataSource.manager.findBy(Revision, { context_str: 'group-test' });
    expect(notes.map((r) => r.revision_note).sort()).toEqual(['first', 'last']);
  });

  it('delivers to a hook written earlier in the same transaction, and not to events before it', async () => {
    const uow = t.app.get(UnitOfWork);
    const events = t.app.get(EventRecorder);
    const record = (contextId: number) =>
      uow.run(async (tx) => {
        await events.record(tx, ctx, { contextStr: 'customer', contextId, event: 'update', data: {} });
      });
    const writes = [
      () => record(900001),
      () =>
        uow.run((tx) =>
          t.app.get(WebhooksService).insertHook(tx, ctx, {
            target_url: 'http://127.0.0.1:9/group-commit',
            event: 'customer.update',
            nickname: null,
            secret: 'whsec_group-commit-test',
          }),
        ),
      () => record(900002),
    ];
    // SQLite runs the three in one group (one transaction); on MySQL/MariaDB each unit has a
    // transaction of its own, so they are sent one after another for the same order.
    const results: unknown[] = [];
    // The group's time cap held still, as above: a slow moment must not split the three.
    const held = jest.spyOn(performance, 'now').mockReturnValue(performance.now());
    if (uow.isMysql) for (const write of writes) results.push(await write());
    else results.push(...(await Promise.all(writes.map((write) => write()))));
    held.mockRestore();
    const hookId = results[1] as number;
    // One transaction for the three on SQLite (on MySQL/MariaDB, one each plus the deliveries'
    // own; with group commit off, one each).
    if (!uow.isMysql) expect(queryRunners).toHaveBeenCalledTimes(fastPath('group-commit') ? 1 : 3);

    const deliveries = await t.dataSource.manager.find(WebhookDelivery, { where: { webhook_id: hookId } });
    const delivered = await t.dataSource.manager.findBy(DomainEvent, {
      domain_event_id: In(deliveries.map((d) => d.domain_event_id)),
    });
    expect(delivered.map((e) => e.context_id)).toEqual(['900002']);
  });
});
