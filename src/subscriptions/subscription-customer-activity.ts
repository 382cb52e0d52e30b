import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerActivity } from 'src/customers/customer-activity';
import { Subscription } from './entities/subscription.entity';

/** A customer with an active subscription has activity (SPEC: customer/nightly). */
@Injectable()
export class SubscriptionCustomerActivity implements OnModuleInit {
  constructor(private readonly activity: CustomerActivity) {}

  onModuleInit(): void {
    this.activity.addSource(async (manager) => {
      const rows = await manager
        .getRepository(Subscription)
        .createQueryBuilder('p')
        .select('DISTINCT p.customer_id', 'customer_id')
        // The stored status: cancelled and expired subscriptions are no longer active.
        .where('p.package_status_str = :active', { active: 'active' })
        .getRawMany<{ customer_id: number | string }>();
      return rows.map((row) => Number(row.customer_id));
    });
  }
}
