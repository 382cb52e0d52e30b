import { In } from 'typeorm';
import { Customer } from 'src/customers/entities/customer.entity';
import { Tx } from 'src/database/unit-of-work';

/**
 * The one lock order of money writes: every unit of work that moves a customer's money
 * (payments and their attempts, refunds, credits, applications, voids) first locks the
 * customer rows concerned, in ascending id order, then the transactions and invoices it
 * touches. Two such writes of one customer queue on the customer row instead of taking
 * invoice and transaction locks in different orders (deadlocks on MySQL/MariaDB). SQLite
 * has a single writer and needs no lock.
 */
export async function lockCustomerMoney(tx: Tx, customerIds: number[]): Promise<void> {
  if (tx.manager.connection.options.type !== 'mysql') return;
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
