import { Injectable } from '@nestjs/common';
import { Clock } from 'src/core/clock/clock';
import { WireFormat } from 'src/core/wire/wire-format';
import { PortalPages } from 'src/portal/portal-pages';
import { PortalRecords, Wire } from 'src/portal/portal-records';
import { invoiceDocument, InvoiceDocument } from './invoice-document';
import { quoteDocument, QuoteDocument } from './quote-document';
import { statementDocument, StatementDocument } from './statement-document';
import { decimalOf } from './wire-values';

/** Assembles printed invoices, quotes and statements from the API's reads. */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly records: PortalRecords,
    private readonly pages: PortalPages,
    private readonly wire: WireFormat,
    private readonly clock: Clock,
  ) {}

  async invoice(invoice: Wire): Promise<InvoiceDocument> {
    const invoiceId = Number(invoice.invoice_id);
    const [customer, transactions] = await Promise.all([
      this.records.customer(Number(invoice.customer_id)),
      this.records.paymentsOn(invoiceId),
    ]);
    const payments = await Promise.all(
      transactions.map(async (listed) => {
        const single = await this.records.transaction(Number(listed.transaction_id));
        const applications = (single.applied_to as Wire[] | undefined) ?? [];
        const applied = applications
          .filter((a) => Number(a.invoice_id) === invoiceId)
          .reduce((sum, a) => sum.plus(decimalOf(a.applied)), decimalOf(0));
        return { transaction: single, applied };
      }),
    );
    const doc = invoiceDocument(
      this.pages.businessName,
      invoice,
      customer,
      payments.filter((p) => !p.applied.isZero()),
    );
    return Object.assign(doc, { seller: this.pages.seller });
  }

  async quote(quote: Wire): Promise<QuoteDocument> {
    const customer = await this.records.customer(Number(quote.customer_id));
    return Object.assign(quoteDocument(this.pages.businessName, quote, customer, this.today()), {
      seller: this.pages.seller,
    });
  }

  /** The account's date now: a quote is valid through its `validuntil_date`. */
  today(): string {
    return this.wire.date(this.clock.now()) ?? '';
  }

  async statement(customer: Wire): Promise<StatementDocument> {
    const ids = [Number(customer.customer_id)];
    const [invoices, payments] = await Promise.all([this.records.invoicesOf(ids), this.records.paymentsOf(ids)]);
    const doc = statementDocument(this.pages.businessName, this.today(), customer, invoices, payments);
    return Object.assign(doc, { seller: this.pages.seller });
  }
}
