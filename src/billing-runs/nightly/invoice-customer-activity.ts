import { Injectable } from '@nestjs/common';
import { CustomerActivitySource } from 'src/customers/customer-activity';

/** Invoices dated on or after the date count as customer activity. */
@Injectable()
export class InvoiceCustomerActivity {
  @CustomerActivitySource()
  activitySql(customerId: string, since: string): string {
    return `EXISTS (SELECT 1 FROM invoice ai WHERE ai.customer_id = ${customerId} AND ai.date >= ${since})`;
  }
}
