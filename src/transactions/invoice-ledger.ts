import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { Tx } from 'src/database/unit-of-work';

/** What paying needs to know about an invoice. */
export interface PayableInvoice {
  invoice_id: number;
  customer_id: number;
  /** The subscription it came from (payment-method selection step 1). */
  package_id: number | null;
  date: string;
  /** What it is billed in (a payment of it moves money in this currency). */
  currency_id: number;
  is_void: boolean;
  /** Balance as of the read, counting every application already committed. */
  balance: Decimal;
  /** Scheduled payments with what is left of each (filled by `read`). */
  schedules?: Array<{ invoice_schedule_id: number; balance: Decimal }>;
}

/**
 * The invoices as transactions see them (implemented over the invoices module by
 * InvoicesLedger), so the application logic does not reach into invoice tables.
 */
export abstract class InvoiceLedger {
  /** Reads invoices without locking (checks and amounts before a charge). Unknown ids are absent. */
  abstract read(m: EntityManager, invoiceIds: number[]): Promise<PayableInvoice[]>;

  /**
   * Locks the invoices for the rest of the transaction (row locks on MySQL; SQLite has a
   * single writer) and returns their balances. On MySQL it must be the transaction's
   * first statement, so balances read after it include everything committed before.
   */
  abstract lock(tx: Tx, invoiceIds: number[]): Promise<PayableInvoice[]>;

  /** Locks every open invoice of the customer (`auto_apply`). */
  abstract lockOpenOf(tx: Tx, customerId: number): Promise<PayableInvoice[]>;

  /** After applications to these invoices changed: status moves and their events. */
  abstract applicationsChanged(tx: Tx, ctx: RequestContext, invoiceIds: number[]): Promise<void>;
}
