import { InProcessJobQueue } from 'src/core/jobs/in-process-job-queue';
import { JobProcessors } from 'src/core/jobs/job-processors';
import { DueWork } from 'src/core/schedule/due-work';
import { DueWorkRegistry } from 'src/core/schedule/due-work-registry';
import { Clock } from './clock';
import { SharedTestClock } from './shared-test-clock';
import { TestClock } from './test-clock';

const at = (iso: string) => new Date(iso);

describe('TestClock', () => {
  const log: string[] = [];
  /** A work due at the moments in `dueAt` (a set the other works may add to). */
  function work(name: string, dueAt: Set<number>, then?: (asOf: Date) => void): DueWork {
    return {
      name,
      trigger: { kind: 'billing-cron' },
      runDue: (asOf) => {
        log.push(`${name}@${asOf.toISOString().slice(0, 19)}`);
        dueAt.delete(asOf.getTime());
        then?.(asOf);
        return Promise.resolve();
      },
      nextDueAfter: (after) =>
        Promise.resolve(
          [...dueAt]
            .sort((a, b) => a - b)
            .filter((t) => t > after.getTime())
            .map((t) => new Date(t))[0] ?? null,
        ),
    };
  }

  function testClock(works: DueWork[]): TestClock {
    const registry = new DueWorkRegistry();
    for (const w of works) registry.register(w);
    const clock = new Clock();
    clock.set(at('2026-01-01T00:00:00Z'));
    const shared = { flushed: () => Promise.resolve() } as unknown as SharedTestClock;
    return new TestClock(clock, shared, registry, new InProcessJobQueue(new JobProcessors(), { jobConcurrency: 4 }));
  }

  beforeEach(() => (log.length = 0));

  it('runs every work first and last, and between only the works due then and those they made due, once', async () => {
    const billingDue = new Set([at('2026-01-02T00:00:00Z').getTime(), at('2026-01-05T00:00:00Z').getTime()]);
    const collectionDue = new Set<number>();
    const nightlyDue = new Set([at('2026-01-03T00:00:00Z').getTime()]);
    const clock = testClock([
      work('collection', collectionDue),
      work('billing', billingDue, (asOf) => collectionDue.add(asOf.getTime())),
      work('nightly', nightlyDue),
    ]);
    await clock.advanceTo(at('2026-01-04T00:00:00Z'));
    expect(log).toEqual([
      // The first moment runs every work (what was due before the move), then the others
      // run only the works due then and those made due.
      'collection@2026-01-02T00:00:00',
      'billing@2026-01-02T00:00:00',
      'nightly@2026-01-02T00:00:00',
      // Collection ran at that moment already: once a moment, so what billing made due waits.
      'nightly@2026-01-03T00:00:00',
      'collection@2026-01-04T00:00:00',
      'billing@2026-01-04T00:00:00',
      'nightly@2026-01-04T00:00:00',
    ]);
    expect(clock.now()).toEqual(at('2026-01-04T00:00:00Z'));
  });

  it('runs a work still due after its run once per moment, not forever', async () => {
    const stuck = new Set([at('2026-01-02T00:00:00Z').getTime()]);
    const never: DueWork = { ...work('stuck', stuck), runDue: () => Promise.resolve(void log.push('stuck')) };
    await testClock([never]).advanceTo(at('2026-01-03T00:00:00Z'));
    expect(log).toEqual(['stuck', 'stuck']);
  });

  it('runs moments within an hour of the first in one step, as of the last, but never across an on-time work', async () => {
    const billingDue = new Set(
      ['2026-01-02T10:00:00Z', '2026-01-02T10:20:00Z', '2026-01-02T10:59:00Z', '2026-01-02T11:30:00Z'].map((t) =>
        at(t).getTime(),
      ),
    );
    const lateDue = new Set(['2026-01-02T23:30:00Z', '2026-01-03T00:10:00Z'].map((t) => at(t).getTime()));
    const nightly = { ...work('nightly', new Set([at('2026-01-03T00:00:00Z').getTime()])), onTime: true };
    const clock = testClock([work('billing', billingDue), work('late', lateDue), nightly]);
    await clock.advanceTo(at('2026-01-01T00:00:01Z'));
    log.length = 0;
    await clock.advanceTo(at('2026-01-04T00:00:00Z'));
    expect(log).toEqual([
      // 10:00, 10:20 and 10:59 are within the hour from 10:00: one step as of 10:59 (a
      // move's first step runs every work).
      'billing@2026-01-02T10:59:00',
      'late@2026-01-02T10:59:00',
      'nightly@2026-01-02T10:59:00',
      'billing@2026-01-02T11:30:00',
      // 00:10 is within the hour, but the on-time work's midnight comes between: it runs alone then.
      'late@2026-01-02T23:30:00',
      'nightly@2026-01-03T00:00:00',
      'late@2026-01-03T00:10:00',
      'billing@2026-01-04T00:00:00',
      'late@2026-01-04T00:00:00',
      'nightly@2026-01-04T00:00:00',
    ]);
  });

  it('never moves back', async () => {
    await expect(testClock([]).advanceTo(at('2025-12-31T00:00:00Z'))).rejects.toThrow('never back');
  });
});
