import { Injectable } from '@nestjs/common';
import { InvoiceQueryFields } from 'src/invoices/invoice-extensions';

/** The invoice a quote became (`quote.invoice_id`): SPEC's `quote.quote_id` invoice query field. */
@Injectable()
@InvoiceQueryFields({
  'quote.quote_id': {
    expr: 'qq.quote_id',
    type: 'int',
    exists: 'SELECT 1 FROM quote qq WHERE qq.invoice_id = i.invoice_id AND {cond}',
  },
})
export class QuoteInvoiceLinks {}
