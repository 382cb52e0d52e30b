import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from 'src/config/app-config';
import { loadConfig } from 'src/config/load-config';
import { Clock } from 'src/core/clock/clock';
import { DueWork } from './due-work';
import { DueWorkRegistry } from './due-work-registry';
import { DueWorkScheduler } from './due-work-scheduler';

describe('DueWorkScheduler', () => {
  const asOf: string[] = [];
  const work = (name: string, trigger: DueWork['trigger']): DueWork => ({
    name,
    trigger,
    runDue: (at) => {
      asOf.push(`${name}@${at.toISOString()}`);
      return Promise.resolve();
    },
  });

  async function started(env: Record<string, string>) {
    const config: AppConfig = loadConfig({ ACCOUNT_TIMEZONE: 'America/Chicago', ...env });
    const registry = new DueWorkRegistry();
    registry.register(work('nightly', { kind: 'billing-cron' }));
    registry.register(work('sweep', { kind: 'interval', everyMs: 2000 }));
    const clock = new Clock();
    clock.set(new Date('2026-06-01T12:00:00Z'));
    const schedulerRegistry = new SchedulerRegistry();
    const scheduler = new DueWorkScheduler(config, registry, clock, schedulerRegistry);
    asOf.length = 0;
    await scheduler.onApplicationBootstrap();
    return { scheduler, schedulerRegistry };
  }

  it('mounts BILLING_CRON and interval triggers on a worker, running each work once at start', async () => {
    const { scheduler, schedulerRegistry } = await started({ APP_ROLE: 'worker', BILLING_CRON: '0 * * * *' });
    expect([...schedulerRegistry.getCronJobs().keys()]).toEqual(['due-work:nightly']);
    expect(schedulerRegistry.getIntervals()).toEqual(['due-work:sweep']);
    expect(asOf).toEqual(['nightly@2026-06-01T12:00:00.000Z', 'sweep@2026-06-01T12:00:00.000Z']);
    await scheduler.onApplicationShutdown();
    expect(schedulerRegistry.getCronJobs().size).toBe(0);
    expect(schedulerRegistry.getIntervals()).toEqual([]);
  });

  it('leaves billing-cron work off when BILLING_CRON is empty', async () => {
    const { scheduler, schedulerRegistry } = await started({ APP_ROLE: 'all', BILLING_CRON: '' });
    expect(schedulerRegistry.getCronJobs().size).toBe(0);
    expect(schedulerRegistry.getIntervals()).toEqual(['due-work:sweep']);
    expect(asOf).toEqual(['sweep@2026-06-01T12:00:00.000Z']);
    await scheduler.onApplicationShutdown();
  });

  it('triggers nothing with TEST_CLOCK=true, even with BILLING_CRON set: only the test clock runs due work', async () => {
    const { scheduler, schedulerRegistry } = await started({
      APP_ROLE: 'all',
      BILLING_CRON: '* * * * *',
      TEST_CLOCK: 'true',
    });
    expect(schedulerRegistry.getCronJobs().size).toBe(0);
    expect(schedulerRegistry.getIntervals()).toEqual([]);
    expect(asOf).toEqual([]);
    await scheduler.onApplicationShutdown();
  });

  it('triggers nothing on an API-only instance', async () => {
    const { scheduler, schedulerRegistry } = await started({ APP_ROLE: 'api', BILLING_CRON: '0 * * * *' });
    expect(schedulerRegistry.getCronJobs().size).toBe(0);
    expect(schedulerRegistry.getIntervals()).toEqual([]);
    expect(asOf).toEqual([]);
    await scheduler.onApplicationShutdown();
  });
});
