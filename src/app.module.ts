import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BulkModule } from './bulk/bulk.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ContactsModule } from './contacts/contacts.module';
import { CoreModule } from './core/core.module';
import { JobsModule } from './core/jobs/jobs.module';
import { CustomersModule } from './customers/customers.module';
import { buildDataSourceOptions } from './database/data-source-options';
import { MailModule } from './mail/mail.module';
import { ReferenceModule } from './reference/reference.module';
import { ItemsModule } from './items/items.module';
import { InvoicesModule } from './invoices/invoices.module';
import { TaxesModule } from './taxes/taxes.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot(buildDataSourceOptions(config.db)),
        JobsModule.forRoot(config),
        CoreModule,
        ReferenceModule,
        MailModule,
        CustomersModule,
        ContactsModule,
        BulkModule,
        TaxesModule,
        ItemsModule,
        InvoicesModule,
      ],
    };
  }
}
