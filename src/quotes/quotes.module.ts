import { Module } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { InvoicesModule } from 'src/invoices/invoices.module';
import { ItemsModule } from 'src/items/items.module';
import { MailModule } from 'src/mail/mail.module';
import { SubscriptionsModule } from 'src/subscriptions/subscriptions.module';
import { TaxesModule } from 'src/taxes/taxes.module';
import { QuoteActions } from './quote-actions';
import { QuoteCustomerActivity } from './quote-customer-activity';
import { QuoteCustomerDeletion } from './quote-customer-deletion';
import { QuoteEvents } from './quote-events';
import { QuoteInvoiceLinks } from './quote-invoice-links';
import { QuoteLineWriter } from './quote-line-writer';
import { QuoteNightly } from './quote-nightly';
import { QuoteReader } from './quote-reader';
import { QuotePresenter } from './quote.presenter';
import { QuotesController } from './quotes.controller';
import { QuotesService } from './quotes.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Quote } from './entities/quote.entity';
import { QuoteLine } from './entities/quote-line.entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([Quote, QuoteLine]),
    CustomersModule,
    InvoicesModule,
    ItemsModule,
    MailModule,
    SubscriptionsModule,
    TaxesModule,
  ],
  controllers: [QuotesController],
  providers: [
    QuotesService,
    QuoteCustomerDeletion,
    QuoteActions,
    QuoteReader,
    QuotePresenter,
    QuoteEvents,
    QuoteLineWriter,
    QuoteCustomerActivity,
    QuoteNightly,
    QuoteInvoiceLinks,
  ],
  exports: [QuotesService, QuoteActions],
})
export class QuotesModule {}
