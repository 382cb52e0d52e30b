import { Module } from '@nestjs/common';
import { SubscriptionsModule } from 'src/subscriptions/subscriptions.module';
import { BillingRun } from './billing-run';
import { BillingRunDueWork } from './billing-run-due-work';

/** Scheduled billing runs (DESIGN §6 "Billing runs"); also started by `npm run billing`. */
@Module({
  imports: [SubscriptionsModule],
  providers: [BillingRun, BillingRunDueWork],
  exports: [BillingRun],
})
export class BillingRunsModule {}
