import { findByPathRef } from 'src/core/refs/ref-resolver';
import { locksRows } from 'src/database/dialect';
import { Tx } from 'src/database/unit-of-work';
import { Subscription } from './entities/subscription.entity';
import { SUBSCRIPTION_REF } from './subscription-ref';

/**
 * The subscription a path names (404 if none), read again under its row lock on
 * MySQL/MariaDB so two actions on it at once are serialized (SQLite has one writer).
 */
export async function lockedSubscriptionByRef(tx: Tx, ref: string): Promise<Subscription> {
  const found = await findByPathRef(tx.manager, SUBSCRIPTION_REF, ref);
  if (!locksRows(tx.manager)) return found;
  const locked = await tx.manager
    .createQueryBuilder(Subscription, 'p')
    .where('p.package_id = :id', { id: found.package_id })
    .setLock('pessimistic_write')
    .getOne();
  return locked ?? found;
}
