import { Module } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { InvoicesModule } from 'src/invoices/invoices.module';
import { MailModule } from 'src/mail/mail.module';
import { SubscriptionsModule } from 'src/subscriptions/subscriptions.module';
import { TransactionsModule } from 'src/transactions/transactions.module';
import { Dunning } from '../dunning/dunning';
import { CollectionEnrollment } from './collection-enrollment';
import { CollectionReopening } from './collection-reopening';
import { InvoiceCollector } from './invoice-collector';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InvoiceCollection } from './invoice-collection.entity';

/** Automatic collection of subscription invoices and its dunning (DESIGN §6 "Billing runs"). */
@Module({
  imports: [
    TypeOrmModule.forFeature([InvoiceCollection]),
    CustomersModule,
    InvoicesModule,
    MailModule,
    SubscriptionsModule,
    TransactionsModule,
  ],
  providers: [CollectionEnrollment, CollectionReopening, InvoiceCollector, Dunning],
  exports: [InvoiceCollector],
})
export class CollectionModule {}
