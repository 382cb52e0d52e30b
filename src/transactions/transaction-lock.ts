import { EntityManager } from 'typeorm';
import { lockForUpdate } from 'src/database/dialect';
import { Transaction } from './entities/transaction.entity';

/**
 * Locks a transaction's row (MySQL/MariaDB; SQLite has a single writer) and returns its
 * status as of now: a void, refund or re-application that committed meanwhile is seen.
 */
export async function lockTransactionRow(m: EntityManager, id: number): Promise<string | undefined> {
  const qb = m
    .createQueryBuilder(Transaction, 't')
    .select(['t.transaction_id', 't.status_str'])
    .where('t.transaction_id = :id', { id });
  lockForUpdate(qb);
  return (await qb.getOne())?.status_str;
}
