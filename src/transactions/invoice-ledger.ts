import Decimal from 'decimal.js';
import { Injectable } from '@nestjs/common';
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
  is_void: boolean;
  /** Balance as of the read, counting every application already committed. */
  balance: Decimal;
}

/**
 * The invoices as transactions see them. The invoices module provides the real one;
 * without it there are no invoices to apply to.
 */
export abstract class InvoiceLedger {
  /** Reads invoices without locking (checks and amounts before a charge). Unknown ids are absent. */
  abstract read(m: EntityManager, invoiceIds: number[]): Promise<PayableInvoice[]>;

  /**
   * Locks the invoices for the rest of the transaction (row locks on MySQL; SQLite has a
   * single writer) and returns their balances. On MySQL it must be the transaction's
   * first statement, so balances read after it include everything committed before.
   */
  abstract lock(m: EntityManager, invoiceIds: number[]): Promise<PayableInvoice[]>;

  /** Locks every open invoice of the customer (`auto_apply`). */
  abstract lockOpenOf(m: EntityManager, customerId: number): Promise<PayableInvoice[]>;

  /** After applications to these invoices changed: status moves and their events. */
  abstract applicationsChanged(tx: Tx, ctx: RequestContext, invoiceIds: number[]): Promise<void>;
}

/** No invoices module: nothing to apply to. */
@Injectable()
export class NoInvoiceLedger extends InvoiceLedger {
  read(): Promise<PayableInvoice[]> {
    return Promise.resolve([]);
  }

  lock(): Promise<PayableInvoice[]> {
    return Promise.resolve([]);
  }

  lockOpenOf(): Promise<PayableInvoice[]> {
    return Promise.resolve([]);
  }

  applicationsChanged(): Promise<void> {
    return Promise.resolve();
  }
}
