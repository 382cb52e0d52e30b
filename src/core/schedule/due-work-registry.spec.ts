import { Logger } from '@nestjs/common';
import { DueWork } from './due-work';
import { DueWorkRegistry } from './due-work-registry';

const at = (iso: string) => new Date(iso);

function work(name: string, dueAt: string[], log: string[]): DueWork {
  return {
    name,
    trigger: { kind: 'interval', everyMs: 1000 },
    runDue: (asOf) => {
      log.push(`${name}@${asOf.toISOString()}`);
      return Promise.resolve();
    },
    nextDueAfter: (after) => Promise.resolve(dueAt.map(at).find((d) => d.getTime() > after.getTime()) ?? null),
  };
}

describe('DueWorkRegistry', () => {
  it('runs every work as of one moment, in registration order', async () => {
    const log: string[] = [];
    const registry = new DueWorkRegistry();
    registry.register(work('b', [], log));
    registry.register(work('a', [], log));
    await registry.runAllDue(at('2026-01-01T00:00:00Z'));
    expect(log).toEqual(['b@2026-01-01T00:00:00.000Z', 'a@2026-01-01T00:00:00.000Z']);
  });

  it('refuses a second work with the same name', () => {
    const registry = new DueWorkRegistry();
    registry.register(work('a', [], []));
    expect(() => registry.register(work('a', [], []))).toThrow('Due work "a" is registered twice');
  });

  it('answers the earliest due moment strictly after the given one, across works', async () => {
    const registry = new DueWorkRegistry();
    registry.register(work('a', ['2026-01-03T00:00:00Z'], []));
    registry.register(work('b', ['2026-01-02T00:00:00Z', '2026-01-05T00:00:00Z'], []));
    registry.register({ name: 'c', trigger: { kind: 'billing-cron' }, runDue: () => Promise.resolve() });
    expect(await registry.nextDueAfter(at('2026-01-01T00:00:00Z'))).toEqual(at('2026-01-02T00:00:00Z'));
    expect(await registry.nextDueAfter(at('2026-01-02T00:00:00Z'))).toEqual(at('2026-01-03T00:00:00Z'));
    expect(await registry.nextDueAfter(at('2026-01-05T00:00:00Z'))).toBeNull();
  });

  it('logs a failing work and still runs the next one', async () => {
    const log: string[] = [];
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const registry = new DueWorkRegistry();
    registry.register({
      name: 'broken',
      trigger: { kind: 'billing-cron' },
      runDue: () => Promise.reject(new Error('database went away')),
    });
    registry.register(work('after', [], log));
    await registry.runAllDue(at('2026-01-01T00:00:00Z'));
    expect(log).toEqual(['after@2026-01-01T00:00:00.000Z']);
    expect(error).toHaveBeenCalledWith('broken failed: database went away');
    error.mockRestore();
  });
});
