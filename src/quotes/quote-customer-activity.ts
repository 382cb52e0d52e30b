import { Injectable } from '@nestjs/common';
import { CustomerActivitySource } from 'src/customers/customer-activity';

/** A quote dated on or after the date counts as customer activity. */
@Injectable()
export class QuoteCustomerActivity {
  @CustomerActivitySource()
  activitySql(customerId: string, since: string): string {
    return `EXISTS (SELECT 1 FROM quote aq WHERE aq.customer_id = ${customerId} AND aq.date >= ${since})`;
  }
}
