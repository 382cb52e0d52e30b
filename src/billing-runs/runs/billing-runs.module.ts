import { Module } from '@nestjs/common';
import { SubscriptionsModule } from 'src/subscriptions/subscriptions.module';
import { UsageModule } from 'src/usage/usage.module';
import { BillingRun } from './billing-run';
import { BillingRunDueWork } from './billing-run-due-work';

/** Scheduled billing runs (DESIGN §6 "Billing runs"); also started by `npm run billing`. */
@Module({
  imports: [SubscriptionsModule, UsageModule],
  providers: [BillingRun, BillingRunDueWork],
  exports: [BillingRun],
})
export class BillingRunsModule {}
