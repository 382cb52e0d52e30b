import { Injectable } from '@nestjs/common';
import { CustomerActivitySource } from 'src/customers/customer-activity';

/** A customer with an active subscription has activity (SPEC: customer/nightly). */
@Injectable()
export class SubscriptionCustomerActivity {
  // The stored status: cancelled and expired subscriptions are no longer active.
  @CustomerActivitySource()
  activitySql(customerId: string): string {
    return `EXISTS (SELECT 1 FROM package ap WHERE ap.customer_id = ${customerId} AND ap.package_status_str = 'active')`;
  }
}
