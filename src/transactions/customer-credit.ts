import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { In } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { RevisionService } from 'src/core/revisions/revision.service';
import { lockCustomers } from 'src/customers/customer-lock';
import { lockForUpdate } from 'src/database/dialect';
import { Tx } from 'src/database/unit-of-work';
import { CreditMemoToRecord, InvoiceCreditHandler, IssuedForCredit } from 'src/invoices/invoice-credit';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { Transaction } from './entities/transaction.entity';
import { InvoiceLedger } from './invoice-ledger';
import { loadTransactionFigures } from './transaction-figures';
import { OFFLINE_METHOD_NAMES } from './transaction-kinds';
import { COUNTING_STATUSES } from './transaction-status';
import { TransactionWriter } from './transaction-writer';

/** A payment or credit memo of a customer with money not yet on any invoice. */
export interface OpenCreditEntry {
  transaction_id: number;
  customer_id: number;
  /** What is left of it (lowered as it is spent). */
  free: Decimal;
  applications: TransactionApplied[];
}

/**
 * The customer's credit balance (DESIGN §6 "Credits"): unapplied payments and credit
 * memos, spent oldest first. Marked as the invoices' credit handler, so every invoice
 * the server issues itself takes the open credit before collection charges the rest, and a
 * subscription's credit beyond its invoice becomes a credit memo (`cre`, `credit`).
 * `pay {use_customer_balance}` spends it the same way.
 */
@Injectable()
@InvoiceCreditHandler()
export class CustomerCredit implements InvoiceCreditHandler {
  constructor(
    private readonly writer: TransactionWriter,
    private readonly ledger: InvoiceLedger,
    private readonly revisions: RevisionService,
    private readonly clock: Clock,
  ) {}

  async recordMemos(tx: Tx, ctx: RequestContext, memos: readonly CreditMemoToRecord[]): Promise<void> {
    for (const memo of memos) {
      await this.writer.insert(
        tx,
        ctx,
        {
          customer_id: memo.customerId,
          transaction_type: 'cre',
          amount: memo.amount,
          status_str: 'ok-successful',
          gateway_status: 1,
          gateway_method: 'credit',
          transaction_method: OFFLINE_METHOD_NAMES.credit,
          memo: memo.memo,
        },
        'Credit memo recorded',
      );
    }
  }

  /**
   * Open credit on invoices just issued, each customer's oldest first. Costs one query when
   * no customer of the batch has open credit (a billing run's usual case).
   */
  async applyOpenCredit(tx: Tx, ctx: RequestContext, invoices: readonly IssuedForCredit[]): Promise<void> {
    const owing = invoices.filter((i) => i.balance.gt(0));
    if (owing.length === 0) return;
    const customers = [...new Set(owing.map((i) => i.customerId))];
    if (!(await this.anyOpen(tx, customers))) return;
    await lockCustomers(tx, customers);
    const open = await this.openCredit(tx, customers);
    const touched: number[] = [];
    for (const invoice of owing) {
      const used = await this.spend(
        tx,
        ctx,
        open.filter((c) => c.customer_id === invoice.customerId),
        invoice,
      );
      if (used.length) touched.push(invoice.invoiceId);
    }
    if (touched.length) await this.ledger.applicationsChanged(tx, ctx, touched);
  }

  /** The customers' unapplied payments and credits, oldest first (`candidates`, then `entries`). */
  async openCredit(tx: Tx, customerIds: number[]): Promise<OpenCreditEntry[]> {
    return this.entries(tx, await this.candidates(tx, customerIds));
  }

  /**
   * The customers' payments and credit memos that count, oldest first. On MySQL the caller
   * holds the customers' locks and they are read FOR UPDATE (a locking read: the latest
   * committed rows), so take them before any plain read of the unit.
   */
  async candidates(tx: Tx, customerIds: number[]): Promise<Transaction[]> {
    const qb = tx.manager
      .createQueryBuilder(Transaction, 't')
      .where({
        customer_id: In(customerIds),
        transaction_type: In(['pay', 'cre']),
        status_str: In([...COUNTING_STATUSES]),
      })
      .orderBy('t.transaction_datetime', 'ASC')
      .addOrderBy('t.transaction_id', 'ASC');
    lockForUpdate(qb);
    return qb.getMany();
  }

  /** What is left of each candidate (those with nothing left are dropped). */
  async entries(tx: Tx, candidates: Transaction[]): Promise<OpenCreditEntry[]> {
    const figures = await loadTransactionFigures(tx.manager, candidates);
    return candidates.flatMap((t) => {
      const f = figures.get(t.transaction_id)!;
      if (!f.unapplied.gt(0)) return [];
      const entry = { transaction_id: t.transaction_id, customer_id: t.customer_id };
      return [Object.assign(entry, { free: f.unapplied, applications: f.applications })];
    });
  }

  /**
   * Spends `open` (one customer's, oldest first) on one invoice up to its balance, each
   * application with its revision; returns the transactions used. The caller records the
   * invoice's revision and calls `applicationsChanged`.
   */
  async spend(tx: Tx, ctx: RequestContext, open: OpenCreditEntry[], invoice: IssuedForCredit): Promise<number[]> {
    const m = tx.manager;
    let left = invoice.balance;
    const used: number[] = [];
    for (const credit of open) {
      if (left.lte(0)) break;
      if (credit.free.lte(0)) continue;
      const applied = Decimal.min(credit.free, left);
      const existing = credit.applications.find((a) => a.invoice_id === invoice.invoiceId);
      if (existing) {
        existing.applied = existing.applied.plus(applied);
        await m.update(TransactionApplied, existing.transaction_applied_id, { applied: existing.applied });
      } else {
        await m.insert(TransactionApplied, {
          transaction_id: credit.transaction_id,
          invoice_id: invoice.invoiceId,
          invoice_schedule_id: null,
          invoice_customer_id: invoice.customerId,
          applied,
          memo: null,
          write_datetime: this.clock.now(),
        });
      }
      await this.revisions.record(
        tx,
        ctx,
        'transaction',
        credit.transaction_id,
        `Applied to invoice ${invoice.invoiceId}`,
      );
      credit.free = credit.free.minus(applied);
      used.push(credit.transaction_id);
      left = left.minus(applied);
    }
    return used;
  }

  /** Whether any of the customers has a payment or credit memo that might be unapplied (one query). */
  private async anyOpen(tx: Tx, customerIds: number[]): Promise<boolean> {
    const rows: Array<{ customer_id: number }> = await tx.manager.query(
      `SELECT t.customer_id FROM payment_transaction t
        WHERE t.customer_id IN (${customerIds.map(() => '?').join(', ')})
          AND t.transaction_type IN ('pay', 'cre') AND t.status_str IN ('ok-successful', 'ok-pending')
          AND t.amount > COALESCE((SELECT SUM(ta.applied) FROM transaction_applied ta
                                    WHERE ta.transaction_id = t.transaction_id), 0)
        LIMIT 1`,
      customerIds,
    );
    return rows.length > 0;
  }
}
