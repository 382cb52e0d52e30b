import { openMemorySqlite } from 'src/database/memory-sqlite.spec-helper';
import { DataSource, EntityManager, MoreThan } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { deferInsertsIn, flushDeferredInserts } from 'src/database/deferred-inserts';
import { Tx } from 'src/database/unit-of-work';
import { DomainEvent } from './domain-event.entity';
import { EventRecorder, PendingEvent, RecordedEvent } from './event-recorder';

describe('EventRecorder', () => {
  let dataSource: DataSource;
  const ctx = { sendWebhooks: true } as RequestContext;

  beforeAll(async () => {
    dataSource = await openMemorySqlite([DomainEvent]);
  });
  afterAll(() => dataSource.destroy());

  /** A listener that wants the `customer.update` events only, and keeps what it was handed. */
  function recorderWithListener(
    handled: RecordedEvent[],
    asked: PendingEvent[],
    batches: number[] = [],
  ): EventRecorder {
    const recorder = new EventRecorder(new Clock());
    recorder.onRecorded({
      wants: (_tx, events) => {
        asked.push(...events);
        batches.push(events.length);
        return Promise.resolve(events.map((event) => event.event === 'update' && !event.suppressWebhooks));
      },
      handle: (_tx, event) => {
        handled.push(event);
        return Promise.resolve();
      },
    });
    return recorder;
  }

  const txOf = (manager: EntityManager): Tx => ({ manager, afterCommit: () => undefined });
  const input = (event: string, contextId: number) => ({
    contextStr: 'customer',
    contextId,
    event,
    data: { n: contextId },
  });

  it('writes a wanted event at once and hands it over with its id; the others at the end', async () => {
    const handled: RecordedEvent[] = [];
    const asked: PendingEvent[] = [];
    const recorder = recorderWithListener(handled, asked);
    await dataSource.transaction(async (manager) => {
      deferInsertsIn(manager);
      await recorder.record(txOf(manager), ctx, input('insert', 1));
      await recorder.record(txOf(manager), ctx, input('update', 2));
      await recorder.record(txOf(manager), { ...ctx, sendWebhooks: false }, input('update', 3));

      const written = await manager.find(DomainEvent);
      expect(written.map((e) => e.context_id)).toEqual(['2']);
      expect(handled).toEqual([expect.objectContaining({ contextId: 2, domainEventId: written[0].domain_event_id })]);
      await flushDeferredInserts(manager);
    });
    expect(asked.map((e) => [e.contextId, e.suppressWebhooks])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    const all = await dataSource.manager.find(DomainEvent, { order: { domain_event_id: 'ASC' } });
    expect(all.map((e) => [e.context_id, e.event, e.suppress_webhooks, e.data])).toEqual([
      ['2', 'update', false, { n: 2 }],
      ['1', 'insert', false, { n: 1 }],
      ['3', 'update', true, { n: 3 }],
    ]);
  });

  it('records a batch as one by one, asking the listener once for all of it', async () => {
    const handled: RecordedEvent[] = [];
    const asked: PendingEvent[] = [];
    const batches: number[] = [];
    const recorder = recorderWithListener(handled, asked, batches);
    const [last] = await dataSource.manager.find(DomainEvent, { order: { domain_event_id: 'DESC' }, take: 1 });
    await dataSource.transaction(async (manager) => {
      deferInsertsIn(manager);
      await recorder.recordMany(txOf(manager), ctx, [input('insert', 4), input('update', 5), input('insert', 6)]);
      await flushDeferredInserts(manager);
    });
    expect(batches).toEqual([3]);
    expect(handled.map((e) => e.contextId)).toEqual([5]);
    const all = await dataSource.manager.find(DomainEvent, {
      where: { domain_event_id: MoreThan(last?.domain_event_id ?? 0) },
      order: { domain_event_id: 'ASC' },
    });
    expect(all.map((e) => [e.context_id, e.event, e.data])).toEqual([
      ['5', 'update', { n: 5 }],
      ['4', 'insert', { n: 4 }],
      ['6', 'insert', { n: 6 }],
    ]);
  });
});
