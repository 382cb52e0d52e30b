import { Injectable, OnModuleInit } from '@nestjs/common';
import { InvoiceExtensions } from 'src/invoices/invoice-extensions';

/** Invoices of a subscription are found by its token: SPEC's `package_token` invoice query field. */
@Injectable()
export class SubscriptionInvoiceLinks implements OnModuleInit {
  constructor(private readonly invoices: InvoiceExtensions) {}

  onModuleInit(): void {
    this.invoices.addQueryFields({
      package_token: {
        expr: 'pk.token',
        type: 'string',
        exists: 'SELECT 1 FROM package pk WHERE pk.package_id = i.package_id AND {cond}',
      },
    });
  }
}
