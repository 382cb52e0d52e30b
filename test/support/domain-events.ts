import { MoreThan } from 'typeorm';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { TestApp } from './test-app';

/** The id of the last event recorded so far (0 when none). */
export async function lastEventId(t: TestApp): Promise<number> {
  const [last] = await t.dataSource.getRepository(DomainEvent).find({ order: { domain_event_id: 'DESC' }, take: 1 });
  return last?.domain_event_id ?? 0;
}

/** Events recorded after the given event id, in order. */
export function eventsAfter(t: TestApp, afterId: number): Promise<DomainEvent[]> {
  return t.dataSource
    .getRepository(DomainEvent)
    .find({ where: { domain_event_id: MoreThan(afterId) }, order: { domain_event_id: 'ASC' } });
}

/** An event as `context/event/id`. */
export const eventLabel = (e: DomainEvent): string => `${e.context_str}/${e.event}/${e.context_id}`;
