import { SubscriptionCustomerActivity } from './subscription-customer-activity';
import { Module } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { InvoicesModule } from 'src/invoices/invoices.module';
import { ItemsModule } from 'src/items/items.module';
import { MailModule } from 'src/mail/mail.module';
import { PaymethodsModule } from 'src/paymethods/paymethods.module';
import { SubscriptionActions } from './subscription-actions';
import { SubscriptionEvents } from './subscription-events';
import { SubscriptionLineWriter } from './subscription-line-writer';
import { SubscriptionPaymethodInput } from './subscription-paymethod-input';
import { SubscriptionProration } from './subscription-proration';
import { SubscriptionCustomerFigures } from './subscription-customer-figures';
import { SubscriptionInvoiceLinks } from './subscription-invoice-links';
import { SubscriptionPaymethodLookup } from './subscription-paymethod-lookup';
import { SubscriptionInvoicing } from './subscription-invoicing';
import { SubscriptionCycleBilling } from './subscription-cycle-billing';
import { SubscriptionUsage } from './subscription-usage';
import { SubscriptionMrr } from './subscription-mrr';
import { SubscriptionExpiry } from './subscription-expiry';
import { SubscriptionEndings } from './subscription-endings';
import { SubscriptionOverdueStatus } from './subscription-overdue-status';
import { SubscriptionReader } from './subscription-reader';
import { SubscriptionPresenter } from './subscription.presenter';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsService } from './subscriptions.service';

import { SubscriptionCustomerDeletion } from './subscription-customer-deletion';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SubscriptionEnding } from './entities/subscription-ending.entity';
import { Subscription } from './entities/subscription.entity';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { BillingCycle } from './entities/billing-cycle.entity';
import { PendingProration } from './entities/pending-proration.entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([Subscription, SubscriptionLine, BillingCycle, PendingProration, SubscriptionEnding]),
    CustomersModule,
    InvoicesModule,
    ItemsModule,
    PaymethodsModule,
    MailModule,
  ],
  controllers: [SubscriptionsController],
  providers: [
    SubscriptionsService,
    SubscriptionCustomerDeletion,
    SubscriptionCustomerActivity,
    SubscriptionActions,
    SubscriptionReader,
    SubscriptionPresenter,
    SubscriptionEvents,
    SubscriptionLineWriter,
    SubscriptionPaymethodInput,
    SubscriptionProration,
    SubscriptionMrr,
    SubscriptionExpiry,
    SubscriptionEndings,
    SubscriptionInvoicing,
    SubscriptionCycleBilling,
    SubscriptionUsage,
    SubscriptionCustomerFigures,
    SubscriptionInvoiceLinks,
    SubscriptionPaymethodLookup,
    SubscriptionOverdueStatus,
  ],
  exports: [
    SubscriptionsService,
    SubscriptionActions,
    SubscriptionReader,
    SubscriptionLineWriter,
    SubscriptionPaymethodLookup,
    SubscriptionCycleBilling,
    SubscriptionUsage,
  ],
})
export class SubscriptionsModule {}
