import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NightlyModule } from './billing/nightly/nightly.module';
import { BulkModule } from './bulk/bulk.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ContactsModule } from './contacts/contacts.module';
import { CoreModule } from './core/core.module';
import { JobsModule } from './core/jobs/jobs.module';
import { CustomersModule } from './customers/customers.module';
import { buildDataSourceOptions } from './database/data-source-options';
import { dropTimedOutConnections } from './database/mysql-timed-out-connections';
import { bindNumbersOnSqlite } from './database/sqlite-number-binding';
import { MailModule } from './mail/mail.module';
import { PaymethodsModule } from './paymethods/paymethods.module';
import { ReferenceModule } from './reference/reference.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ItemsModule } from './items/items.module';
import { InvoicesModule } from './invoices/invoices.module';
import { TaxesModule } from './taxes/taxes.module';
import { TransactionsModule } from './transactions/transactions.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRootAsync({
          useFactory: () => buildDataSourceOptions(config.db, config.timeouts),
          dataSourceFactory: async (options) =>
            dropTimedOutConnections(await bindNumbersOnSqlite(new DataSource(options!)).initialize()),
        }),
        JobsModule.forRoot(config),
        CoreModule,
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
      ],
    };
  }
}
