import { EntityManager } from 'typeorm';
import { FAST_PATHS } from 'src/config/app-config';
import { useFastPaths } from './fast-paths';
import { forgetInTransaction, memoInTransaction } from './transaction-memo';

describe('memoInTransaction', () => {
  const managerA = {} as EntityManager;
  const managerB = {} as EntityManager;

  it('loads once per transaction and key', async () => {
    const load = jest.fn().mockResolvedValueOnce([1]).mockResolvedValueOnce([2]).mockResolvedValueOnce([3]);
    expect(await memoInTransaction(managerA, 'hooks', load)).toEqual([1]);
    expect(await memoInTransaction(managerA, 'hooks', load)).toEqual([1]);
    expect(await memoInTransaction(managerA, 'other', load)).toEqual([2]);
    expect(await memoInTransaction(managerB, 'hooks', load)).toEqual([3]);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('loads again after the transaction forgets, and only for that transaction', async () => {
    const m1 = {} as EntityManager;
    const m2 = {} as EntityManager;
    await memoInTransaction(m1, 'k', () => Promise.resolve('old'));
    await memoInTransaction(m2, 'k', () => Promise.resolve('kept'));
    forgetInTransaction(m1);
    expect(await memoInTransaction(m1, 'k', () => Promise.resolve('new'))).toBe('new');
    expect(await memoInTransaction(m2, 'k', () => Promise.resolve('unused'))).toBe('kept');
  });

  it('remembers nothing when the load fails', async () => {
    const m = {} as EntityManager;
    await expect(memoInTransaction(m, 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memoInTransaction(m, 'k', () => Promise.resolve('loaded'))).toBe('loaded');
  });

  it('reads every time with the memo off (DB_FAST_PATHS)', async () => {
    useFastPaths(new Set(FAST_PATHS.filter((name) => name !== 'transaction-memo')));
    try {
      const m = {} as EntityManager;
      const load = jest.fn().mockResolvedValueOnce('first').mockResolvedValueOnce('second');
      expect(await memoInTransaction(m, 'k', load)).toBe('first');
      expect(await memoInTransaction(m, 'k', load)).toBe('second');
    } finally {
      useFastPaths(new Set(FAST_PATHS));
    }
  });
});
