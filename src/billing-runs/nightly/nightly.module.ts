import { Module, OnModuleInit } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { InvoicesModule } from 'src/invoices/invoices.module';
import { CustomerActivity } from 'src/customers/customer-activity';
import { NightlyJob } from './nightly-job';
import { NightlyDueWork } from './nightly-due-work';

@Module({
  imports: [CustomersModule, InvoicesModule],
  providers: [NightlyJob, NightlyDueWork],
  exports: [NightlyJob],
})
export class NightlyModule implements OnModuleInit {
  constructor(private readonly activity: CustomerActivity) {}

  /** Invoices dated (or written) since the date count as activity. */
  onModuleInit(): void {
    this.activity.addSource(async (manager, sinceDate) => {
      const rows = await manager
        .getRepository(Invoice)
        .createQueryBuilder('i')
        .select('DISTINCT i.customer_id', 'customer_id')
        .where('i.date >= :sinceDate', { sinceDate })
        .getRawMany<{ customer_id: number | string }>();
      return rows.map((row) => Number(row.customer_id));
    });
  }
}
