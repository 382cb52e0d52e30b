import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerActivity } from 'src/customers/customer-activity';
import { Quote } from './entities/quote.entity';

/** A quote dated on or after the date counts as customer activity (customer/nightly). */
@Injectable()
export class QuoteCustomerActivity implements OnModuleInit {
  constructor(private readonly activity: CustomerActivity) {}

  onModuleInit(): void {
    this.activity.addSource(async (manager, sinceDate) => {
      const rows = await manager
        .getRepository(Quote)
        .createQueryBuilder('q')
        .select('DISTINCT q.customer_id', 'customer_id')
        .where('q.date >= :sinceDate', { sinceDate })
        .getRawMany<{ customer_id: number | string }>();
      return rows.map((row) => Number(row.customer_id));
    });
  }
}
