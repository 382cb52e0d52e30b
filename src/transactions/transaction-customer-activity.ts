import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerActivity } from 'src/customers/customer-activity';
import { Transaction } from './entities/transaction.entity';

/** A transaction dated on or after the date counts as customer activity (customer/nightly). */
@Injectable()
export class TransactionCustomerActivity implements OnModuleInit {
  constructor(private readonly activity: CustomerActivity) {}

  onModuleInit(): void {
    this.activity.addSource(async (manager, sinceDate) => {
      const rows = await manager
        .getRepository(Transaction)
        .createQueryBuilder('t')
        .select('DISTINCT t.customer_id', 'customer_id')
        .where('t.transaction_date >= :sinceDate', { sinceDate })
        .getRawMany<{ customer_id: number | string }>();
      return rows.map((row) => Number(row.customer_id));
    });
  }
}
