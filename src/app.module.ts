import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AnalyticsModule } from './analytics/analytics.module';
import { CollectionModule } from './billing-runs/collection/collection.module';
import { NightlyModule } from './billing-runs/nightly/nightly.module';
import { BillingRunsModule } from './billing-runs/runs/billing-runs.module';
import { BulkModule } from './bulk/bulk.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ContactsModule } from './contacts/contacts.module';
import { CoreModule } from './core/core.module';
import { PluginsModule } from './core/plugins/plugins.module';
import { TestClockModule } from './core/clock/test-clock.module';
import { JobsModule } from './core/jobs/jobs.module';
import { DueWorkModule } from './core/schedule/due-work.module';
import { CustomersModule } from './customers/customers.module';
import { buildDataSourceOptions } from './database/data-source-options';
import { useFastPaths } from './database/fast-paths';
import { dropTimedOutConnections } from './database/mysql-timed-out-connections';
import { bindNumbersOnSqlite } from './database/sqlite-number-binding';
import { MailModule } from './mail/mail.module';
import { OpsModule } from './ops/ops.module';
import { PaymethodsModule } from './paymethods/paymethods.module';
import { PortalModule } from './portal/portal.module';
import { ReferenceModule } from './reference/reference.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ItemsModule } from './items/items.module';
import { InvoicesModule } from './invoices/invoices.module';
import { TaxesModule } from './taxes/taxes.module';
import { TransactionsModule } from './transactions/transactions.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { UsageModule } from './usage/usage.module';
import { QuotesModule } from './quotes/quotes.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ ...buildDataSourceOptions(config.db, [], config.timeouts), autoLoadEntities: true }),
          dataSourceFactory: async (options) => {
            useFastPaths(config.db.fastPaths);
            return dropTimedOutConnections(await bindNumbersOnSqlite(new DataSource(options!)).initialize());
          },
        }),
        JobsModule.forRoot(config),
        CoreModule,
        PluginsModule,
        DueWorkModule,
        TestClockModule,
        ReferenceModule,
        MailModule,
        CustomersModule,
        ContactsModule,
        BulkModule,
        WebhooksModule,
        TaxesModule,
        ItemsModule,
        InvoicesModule,
        PaymethodsModule,
        TransactionsModule,
        NightlyModule,
        OpsModule.forRoot(config),
        SubscriptionsModule,
        UsageModule,
        BillingRunsModule,
        PortalModule,
        QuotesModule,
        CollectionModule,
        AnalyticsModule,
      ],
    };
  }
}
