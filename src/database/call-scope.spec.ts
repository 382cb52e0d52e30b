import { currentScope, openScope, runInScope, runSyncInScope, scopeTrackingOn } from './call-scope';

describe('call scope', () => {
  it('carries a scope through everything its body awaits, and is off once the last scope closes', async () => {
    const origin = { name: 'request' };
    expect(scopeTrackingOn()).toBe(false);
    const seen = await runInScope({ origin }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { origin: currentScope()?.origin, on: scopeTrackingOn() };
    });
    expect(seen).toEqual({ origin, on: true });
    expect(scopeTrackingOn()).toBe(false);
    expect(currentScope()).toBeUndefined();
  });

  it('keeps each of two concurrent scopes apart, and stays on until both have closed', async () => {
    let releaseFirst!: () => void;
    const firstWaits = new Promise<void>((resolve) => (releaseFirst = resolve));
    const first = runInScope({ origin: { n: 1 } }, async () => {
      await firstWaits;
      return currentScope()?.origin;
    });
    const second = await runInScope({ origin: { n: 2 } }, async () => {
      await Promise.resolve();
      return currentScope()?.origin;
    });
    expect(second).toEqual({ n: 2 });
    expect(scopeTrackingOn()).toBe(true);
    releaseFirst();
    expect(await first).toEqual({ n: 1 });
    expect(scopeTrackingOn()).toBe(false);
  });

  it('closes a scope whose body rejects or throws, and a close called twice counts once', async () => {
    await expect(runInScope({}, () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(() =>
      openScope({}, () => {
        throw new Error('sync');
      }),
    ).toThrow('sync');
    expect(scopeTrackingOn()).toBe(false);

    const close = openScope({}, () => undefined);
    const other = openScope({}, () => undefined);
    close();
    close();
    expect(scopeTrackingOn()).toBe(true);
    other();
    expect(scopeTrackingOn()).toBe(false);
  });

  it('runs a synchronous function in a scope and returns its result', () => {
    const origin = { n: 3 };
    expect(runSyncInScope({ origin }, () => currentScope()?.origin)).toBe(origin);
    expect(scopeTrackingOn()).toBe(false);
  });
});
