import Decimal from 'decimal.js';
import { EntityManager, In } from 'typeorm';
import { ZERO } from 'src/core/money/decimal';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { Transaction } from './entities/transaction.entity';
import { COUNTING_STATUSES } from './transaction-status';

/** A transaction's derived money and links. */
export interface TransactionFigures {
  applied: Decimal;
  unapplied: Decimal;
  applications: TransactionApplied[];
  refundIds: number[];
}

const counts = (t: Transaction): boolean => COUNTING_STATUSES.includes(t.status_str as never);

/**
 * Figures for a page of transactions in three queries (applications, refunds, the
 * refunds' applications), never one per transaction.
 *
 * applied = what sits on invoices; a payment's or credit's unapplied = amount - applied
 * - what its refunds took back without going through an invoice.
 */
export async function loadTransactionFigures(
  m: EntityManager,
  rows: Transaction[],
): Promise<Map<number, TransactionFigures>> {
  const ids = rows.map((r) => r.transaction_id);
  const result = new Map<number, TransactionFigures>();
  if (!ids.length) return result;
  const applications = await m.find(TransactionApplied, {
    where: { transaction_id: In(ids) },
    order: { transaction_applied_id: 'ASC' },
  });
  const refunds = await m.find(Transaction, {
    where: { parent_transaction_id: In(ids), transaction_type: 'ref' },
    order: { transaction_id: 'ASC' },
  });
  const refundApplications = refunds.length
    ? await m.find(TransactionApplied, { where: { transaction_id: In(refunds.map((r) => r.transaction_id)) } })
    : [];
  const appliedOf = (list: TransactionApplied[], id: number) =>
    list.filter((a) => a.transaction_id === id).reduce((sum, a) => sum.plus(a.applied), ZERO);

  for (const row of rows) {
    const own = applications.filter((a) => a.transaction_id === row.transaction_id);
    const applied = counts(row) ? appliedOf(own, row.transaction_id) : ZERO;
    const children = refunds.filter((r) => r.parent_transaction_id === row.transaction_id);
    let unapplied = ZERO;
    if (counts(row) && row.transaction_type !== 'ref') {
      const takenBack = children
        .filter(counts)
        .reduce(
          (sum, r) => sum.plus(r.amount.abs().minus(appliedOf(refundApplications, r.transaction_id).abs())),
          ZERO,
        );
      unapplied = row.amount.minus(applied).minus(takenBack);
    }
    result.set(row.transaction_id, {
      applied,
      unapplied,
      applications: own,
      refundIds: children.map((r) => r.transaction_id),
    });
  }
  return result;
}
