import { Injectable } from '@nestjs/common';
import { InvoiceQueryFields } from 'src/invoices/invoice-extensions';

/** Invoices of a subscription are found by its token: SPEC's `package_token` invoice query field. */
@Injectable()
@InvoiceQueryFields({
  package_token: {
    expr: 'pk.token',
    type: 'string',
    exists: 'SELECT 1 FROM package pk WHERE pk.package_id = i.package_id AND {cond}',
  },
})
export class SubscriptionInvoiceLinks {}
