import { Module } from '@nestjs/common';
import { InvoicesModule } from 'src/invoices/invoices.module';
import { SubscriptionsModule } from 'src/subscriptions/subscriptions.module';
import { BillingRun } from './billing-run';
import { BillingRunDueWork } from './billing-run-due-work';

/** Scheduled billing runs (DESIGN §6 "Billing runs"); also started by `npm run billing`. */
@Module({
  imports: [SubscriptionsModule, InvoicesModule],
  providers: [BillingRun, BillingRunDueWork],
  exports: [BillingRun],
})
export class BillingRunsModule {}
