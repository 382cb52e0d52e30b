import { Module, OnModuleInit } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { InvoicesModule } from 'src/invoices/invoices.module';
import { CustomerActivity } from 'src/customers/customer-activity';
import { NightlyJob } from './nightly-job';
import { NightlyDueWork } from './nightly-due-work';
import { TypeOrmModule } from '@nestjs/typeorm';
import { NightlyRun } from './nightly-run.entity';

@Module({
  imports: [TypeOrmModule.forFeature([NightlyRun]), CustomersModule, InvoicesModule],
  providers: [NightlyJob, NightlyDueWork],
  exports: [NightlyJob],
})
export class NightlyModule implements OnModuleInit {
  constructor(private readonly activity: CustomerActivity) {}

  /** Invoices dated on or after the date count as activity. */
  onModuleInit(): void {
    this.activity.addSource(
      (customerId, since) =>
        `EXISTS (SELECT 1 FROM invoice ai WHERE ai.customer_id = ${customerId} AND ai.date >= ${since})`,
    );
  }
}
