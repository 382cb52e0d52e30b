import { Injectable } from '@nestjs/common';
import { ActionCatalog } from 'src/core/actions/action-catalog';
import { InvoicePayInputDto } from './dto/applied-to.dto';
import { DataSource } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { isPlainObject } from 'src/core/validation/validate-body';
import { UnitOfWork } from 'src/database/unit-of-work';
import { INVOICE_REF } from 'src/invoices/invoice-ref';
import { InvoiceLedger } from './invoice-ledger';
import { lockCustomers } from 'src/customers/customer-lock';
import { CustomerCredit } from './customer-credit';
import { PaymentService } from './payment.service';
import { isSentPaymethod, SentPaymethod } from './sent-paymethod';

const FIELDS = new Set(['use_customer_balance', 'paymethods', 'amount']);

/** The path's invoice deleted while its pay ran: the 404 a pay sent after the delete gets. */
const invoiceGone = (): ApiError => ApiError.notFound(INVOICE_REF.resource);

/**
 * `POST /invoice/<id>?action=pay` (DESIGN §6 "Invoices"): `{use_customer_balance: true}`
 * puts the customer's unapplied payments and credits on the invoice; otherwise the
 * invoice is charged as `POST /transaction?action=pay` would (same method selection).
 */
@Injectable()
export class InvoicePayAction {
  constructor(
    private readonly payments: PaymentService,
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ledger: InvoiceLedger,
    private readonly revisions: RevisionService,
    private readonly sentPaymethod: SentPaymethod,
    private readonly credit: CustomerCredit,
    catalog: ActionCatalog,
  ) {
    // Its own parser: a card sent in the body is read before any other field (isSentPaymethod).
    catalog.object(
      'invoice',
      'pay',
      { summary: 'Pay the invoice', body: { described: InvoicePayInputDto } },
      (r, b, c) => this.run(r, b, c),
    );
  }

  private async run(ref: string, body: unknown, ctx: RequestContext): Promise<unknown> {
    const fields = body === undefined || body === null || body === '' ? {} : body;
    if (!isPlainObject(fields)) throw ApiError.badRequest('The request body must be a JSON object.');
    if (isSentPaymethod(fields)) return this.payWithSent(ref, fields, ctx);
    const unknown = Object.keys(fields).find((k) => !FIELDS.has(k));
    if (unknown) throw ApiError.badRequest(`Invalid field: "${unknown}" is not a field of action pay.`);
    const invoice = await findByPathRef(this.dataSource.manager, INVOICE_REF, ref);
    if (fields.use_customer_balance !== undefined) {
      if (fields.use_customer_balance !== true) {
        throw ApiError.badRequest('Field "use_customer_balance" must be true when sent.');
      }
      if (fields.paymethods !== undefined || fields.amount !== undefined) {
        throw ApiError.badRequest('Send either "use_customer_balance" or "paymethods"/"amount", not both.');
      }
      return this.useCustomerBalance(ctx, invoice.invoice_id, invoice.customer_id);
    }
    return this.payments.pay(
      ctx,
      {
        customer_id: invoice.customer_id,
        applied_to: [invoice.invoice_id],
        ...(fields.amount !== undefined ? { amount: fields.amount } : {}),
        ...(fields.paymethods !== undefined ? { paymethods: fields.paymethods } : {}),
      },
      invoiceGone,
    );
  }

  /** A card or bank account sent as the body: stored on the customer, then paid with as `paymethods`. */
  private async payWithSent(ref: string, body: Record<string, unknown>, ctx: RequestContext): Promise<unknown> {
    const invoice = await findByPathRef(this.dataSource.manager, INVOICE_REF, ref);
    const method = await this.sentPaymethod.store(ctx, invoice.customer_id, body);
    return this.payments.pay(
      ctx,
      { customer_id: invoice.customer_id, applied_to: [invoice.invoice_id], paymethods: [method] },
      invoiceGone,
    );
  }

  /** Oldest unapplied money first, up to the invoice's balance (CustomerCredit). */
  private async useCustomerBalance(ctx: RequestContext, invoiceId: number, customerId: number): Promise<true> {
    await this.uow.run(async (tx) => {
      // The customer first (the lock order of money writes), then its money (read FOR
      // UPDATE before the invoice): two invoices never both spend the same credit.
      await lockCustomers(tx, [customerId]);
      const candidates = await this.credit.candidates(tx, [customerId]);
      const [locked] = await this.ledger.lock(tx, [invoiceId]);
      if (!locked) throw invoiceGone();
      const open = await this.credit.entries(tx, candidates);
      if (locked.is_void || locked.balance.lte(0)) throw ApiError.badRequest('This invoice has no balance to pay.');
      const used = await this.credit.spend(tx, ctx, open, {
        invoiceId,
        customerId: locked.customer_id,
        balance: locked.balance,
      });
      if (!used.length) throw ApiError.badRequest('The customer has no unapplied payments or credits to use.');
      await this.revisions.record(
        tx,
        ctx,
        'invoice',
        invoiceId,
        `Paid from the customer's balance (${used.join(', ')})`,
      );
      await this.ledger.applicationsChanged(tx, ctx, [invoiceId]);
    });
    return true;
  }
}
