import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, In } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { ApiError } from 'src/core/envelope/api-error';
import { sumMoney } from 'src/core/money/decimal';
import { centsText } from 'src/core/money/money-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { Tx } from 'src/database/unit-of-work';
import { allocate, Application, ApplicationStyle } from './allocation';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { InvoiceLedger, PayableInvoice } from './invoice-ledger';

/**
 * Puts a transaction's money on invoices: checks the invoices named, locks them, spreads
 * the amount (never more than a balance) and writes the applications.
 */
@Injectable()
export class InvoiceApplier {
  constructor(
    private readonly ledger: InvoiceLedger,
    private readonly clock: Clock,
  ) {}

  /**
   * Checks, before anything is written or charged, that every listed invoice exists, is
   * not void and is the customer's (or a child customer's), and that splits fit the amount.
   */
  async check(
    m: EntityManager,
    customerId: number,
    style: ApplicationStyle,
    amount: Decimal | null,
    missing: MissingInvoice = missingField,
  ): Promise<PayableInvoice[]> {
    if (style.kind !== 'list') return [];
    const invoices = await this.ledger.read(
      m,
      style.items.map((i) => i.invoice_id),
    );
    const byId = new Map(invoices.map((i) => [i.invoice_id, i]));
    const children = await this.childrenOf(m, customerId, invoices);
    style.items.forEach((item, i) => {
      const invoice = assertListed(item, i, byId.get(item.invoice_id), missing);
      if (invoice.customer_id !== customerId && !children.has(invoice.customer_id)) {
        throw ApiError.badRequest(
          `Field "applied_to[${i}].invoice_id": invoice ${item.invoice_id} belongs to another customer.`,
        );
      }
      if (
        item.invoice_schedule_id !== null &&
        !invoice.schedules?.some((s) => s.invoice_schedule_id === item.invoice_schedule_id)
      ) {
        throw ApiError.badRequest(
          `Field "applied_to[${i}].invoice_schedule_id": invoice ${item.invoice_id} has no scheduled payment ${item.invoice_schedule_id}.`,
        );
      }
      assertItemFits(item, i, invoice);
    });
    const splits = sumMoney(style.items.map((i) => i.applied ?? new Decimal(0)));
    if (amount && splits.gt(amount)) {
      throw ApiError.badRequest(
        `Field "applied_to": the amounts applied (${centsText(splits)}) add up to more than the amount (${centsText(amount)}).`,
      );
    }
    return invoices;
  }

  /**
   * Explicit `applied` amounts fit the balances as read under the invoices' locks (less
   * what pending charges reserved): the same 400 as `check`, now certain. An invoice deleted
   * or voided since `check` gets the answer `check` would give now (issue 43: never a 500).
   */
  assertFits(style: ApplicationStyle, invoices: PayableInvoice[], missing: MissingInvoice = missingField): void {
    if (style.kind !== 'list') return;
    const byId = new Map(invoices.map((i) => [i.invoice_id, i]));
    style.items.forEach((item, i) =>
      assertItemFits(item, i, assertListed(item, i, byId.get(item.invoice_id), missing)),
    );
  }

  /** Locks what the style touches: the transaction's first statement (see InvoiceLedger.lock). */
  lock(tx: Tx, customerId: number, style: ApplicationStyle, alsoIds: number[] = []): Promise<PayableInvoice[]> {
    if (style.kind === 'auto') return this.ledger.lockOpenOf(tx, customerId);
    const ids = [...new Set([...(style.kind === 'list' ? style.items.map((i) => i.invoice_id) : []), ...alsoIds])];
    return ids.length ? this.ledger.lock(tx, ids) : Promise.resolve([]);
  }

  /** Spreads the amount over the locked invoices and writes the applications. */
  async write(
    m: EntityManager,
    transactionId: number,
    amount: Decimal,
    style: ApplicationStyle,
    locked: PayableInvoice[],
  ): Promise<Application[]> {
    const open = locked.filter((i) => !i.is_void);
    const applications = allocate(amount, style, open);
    const customers = new Map(locked.map((i) => [i.invoice_id, i.customer_id]));
    if (applications.length) {
      await m.insert(
        TransactionApplied,
        applications.map((a) => ({
          transaction_id: transactionId,
          invoice_id: a.invoice_id,
          invoice_schedule_id: a.invoice_schedule_id,
          invoice_customer_id: customers.get(a.invoice_id) ?? 0,
          applied: a.applied,
          memo: null,
          write_datetime: this.clock.now(),
        })),
      );
    }
    return applications;
  }

  /** Direct children of the payer among the invoices' customers (a parent may pay them). */
  private async childrenOf(m: EntityManager, customerId: number, invoices: PayableInvoice[]): Promise<Set<number>> {
    const others = [...new Set(invoices.map((i) => i.customer_id).filter((id) => id !== customerId))];
    if (!others.length) return new Set();
    const rows = await m.find(Customer, {
      where: { customer_id: In(others), parent_customer_id: customerId },
      select: { customer_id: true },
    });
    return new Set(rows.map((r) => r.customer_id));
  }
}

/** The answer for a listed invoice that does not exist (or no longer). */
export type MissingInvoice = (invoiceId: number, index: number) => ApiError;

/** `POST /transaction`: the invoice is a field of the body. */
const missingField: MissingInvoice = (invoiceId, index) =>
  ApiError.badRequest(`Field "applied_to[${index}].invoice_id": no invoice with id ${invoiceId} exists.`);

/** The listed invoice, there and not void. */
function assertListed(
  item: { invoice_id: number },
  i: number,
  invoice: PayableInvoice | undefined,
  missing: MissingInvoice,
): PayableInvoice {
  if (!invoice) throw missing(item.invoice_id, i);
  if (invoice.is_void)
    throw ApiError.badRequest(`Field "applied_to[${i}].invoice_id": invoice ${item.invoice_id} is void.`);
  return invoice;
}

function assertItemFits(
  item: { invoice_id: number; applied: Decimal | null },
  i: number,
  invoice: PayableInvoice,
): void {
  if (item.applied && item.applied.gt(invoice.balance)) {
    throw ApiError.badRequest(
      `Field "applied_to[${i}].applied": ${centsText(item.applied)} is more than the balance of invoice ${item.invoice_id} (${centsText(invoice.balance)}).`,
    );
  }
}
