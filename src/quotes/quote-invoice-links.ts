import { Injectable, OnModuleInit } from '@nestjs/common';
import { InvoiceExtensions } from 'src/invoices/invoice-extensions';

/** The invoice a quote became (`quote.invoice_id`): SPEC's `quote.quote_id` invoice query field. */
@Injectable()
export class QuoteInvoiceLinks implements OnModuleInit {
  constructor(private readonly invoices: InvoiceExtensions) {}

  onModuleInit(): void {
    this.invoices.addQueryFields({
      'quote.quote_id': {
        expr: 'qq.quote_id',
        type: 'int',
        exists: 'SELECT 1 FROM quote qq WHERE qq.invoice_id = i.invoice_id AND {cond}',
      },
    });
  }
}
