import { EntityManager } from 'typeorm';
import { fastPath } from './fast-paths';

/**
 * Values read once per transaction. A group commit runs many writes in one transaction,
 * and most of them ask the same question (which webhooks match a customer insert?): the
 * answer is read once and kept until the transaction ends or a write changes it. The
 * manager stands for the transaction (each has its own), so nothing outlives it. With the
 * mechanism off (fast-paths.ts) every call reads.
 */
const memos = new WeakMap<EntityManager, Map<string, unknown>>();

export async function memoInTransaction<T>(manager: EntityManager, key: string, load: () => Promise<T>): Promise<T> {
  if (!fastPath('transaction-memo')) return load();
  let memo = memos.get(manager);
  if (memo?.has(key)) return memo.get(key) as T;
  const value = await load();
  if (!memo) {
    memo = new Map();
    memos.set(manager, memo);
  }
  memo.set(key, value);
  return value;
}

/** Forgets what the transaction read: after a write that changes it, or a rollback to a savepoint. */
export function forgetInTransaction(manager: EntityManager): void {
  memos.delete(manager);
}
