import { Injectable } from '@nestjs/common';
import { CustomerActivitySource } from 'src/customers/customer-activity';

/** A transaction dated on or after the date counts as customer activity. */
@Injectable()
export class TransactionCustomerActivity {
  @CustomerActivitySource()
  activitySql(customerId: string, since: string): string {
    return `EXISTS (SELECT 1 FROM payment_transaction tx_a WHERE tx_a.customer_id = ${customerId} AND tx_a.transaction_date >= ${since})`;
  }
}
