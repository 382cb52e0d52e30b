import { Module } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { SubscriptionsModule } from 'src/subscriptions/subscriptions.module';
import { WebhooksModule } from 'src/webhooks/webhooks.module';
import { PushedUsageSource } from './pushed-usage-source';
import { UsageController } from './usage.controller';
import { UsagePull } from './usage-pull';
import { UsageService } from './usage.service';
import { UsageTargetResolver } from './usage-target-resolver';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsageRecord } from './entities/usage-record.entity';

/**
 * Usage of metered subscription lines: records pushed through `/usage` (billed in arrears
 * through the subscriptions' usage registry) and the pull from USAGE_URL that billing runs
 * make before each subscription's unit.
 */
@Module({
  imports: [TypeOrmModule.forFeature([UsageRecord]), CustomersModule, SubscriptionsModule, WebhooksModule],
  controllers: [UsageController],
  providers: [UsageService, UsageTargetResolver, PushedUsageSource, UsagePull],
  exports: [UsageService, UsagePull],
})
export class UsageModule {}
