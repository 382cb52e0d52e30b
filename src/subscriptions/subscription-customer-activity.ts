import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerActivity } from 'src/customers/customer-activity';

/** A customer with an active subscription has activity (SPEC: customer/nightly). */
@Injectable()
export class SubscriptionCustomerActivity implements OnModuleInit {
  constructor(private readonly activity: CustomerActivity) {}

  onModuleInit(): void {
    // The stored status: cancelled and expired subscriptions are no longer active.
    this.activity.addSource(
      (customerId) =>
        `EXISTS (SELECT 1 FROM package ap WHERE ap.customer_id = ${customerId} AND ap.package_status_str = 'active')`,
    );
  }
}
