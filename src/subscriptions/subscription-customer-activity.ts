import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerActivity } from 'src/billing/nightly/customer-activity';
import { Subscription } from './entities/subscription.entity';

/** A subscription still running (not cancelled or expired) counts as customer activity (customer/nightly). */
@Injectable()
export class SubscriptionCustomerActivity implements OnModuleInit {
  constructor(private readonly activity: CustomerActivity) {}

  onModuleInit(): void {
    this.activity.addSource(async (manager) => {
      const rows = await manager
        .getRepository(Subscription)
        .createQueryBuilder('p')
        .select('DISTINCT p.customer_id', 'customer_id')
        .where("p.package_status_str = 'active'")
        .getRawMany<{ customer_id: number | string }>();
      return rows.map((row) => Number(row.customer_id));
    });
  }
}
