import { In } from 'typeorm';
import { locksRows } from 'src/database/dialect';
import { Tx } from 'src/database/unit-of-work';
import { Customer } from './entities/customer.entity';

/**
 * The one lock order of writes to what a customer owns: every unit of work that moves a
 * customer's money (payments and their attempts, refunds, credits, applications, voids)
 * or stores a payment method first locks the customer rows concerned, in ascending id
 * order, then the transactions and invoices it touches. Two such writes of one customer
 * queue on the customer row instead of taking invoice and transaction locks in different
 * orders (deadlocks on MySQL/MariaDB). SQLite has a single writer and needs no lock.
 */
export async function lockCustomers(tx: Tx, customerIds: number[]): Promise<void> {
  if (!locksRows(tx.manager)) return;
  const ids = [...new Set(customerIds)].sort((a, b) => a - b);
  if (!ids.length) return;
  await tx.manager
    .createQueryBuilder(Customer, 'c')
    .select('c.customer_id')
    .where({ customer_id: In(ids) })
    .orderBy('c.customer_id', 'ASC')
    .setLock('pessimistic_write')
    .getMany();
}
