import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { ContactsModule } from 'src/contacts/contacts.module';
import { CustomersModule } from 'src/customers/customers.module';
import { InvoicesModule } from 'src/invoices/invoices.module';
import { PaymentsModule } from 'src/payments/payments.module';
import { PaymethodsModule } from 'src/paymethods/paymethods.module';
import { QuotesModule } from 'src/quotes/quotes.module';
import { SubscriptionsModule } from 'src/subscriptions/subscriptions.module';
import { TransactionsModule } from 'src/transactions/transactions.module';
import { DocumentsController } from './documents/documents.controller';
import { DocumentsService } from './documents/documents.service';
import { CardEntry } from './paying/card-entry';
import { InvoicePayer } from './paying/invoice-payer';
import { PayController } from './paying/pay.controller';
import { PaymethodSaver } from './paying/paymethod-saver';
import { PortalAccess } from './portal-access';
import { PortalCsrf } from './portal-csrf';
import { PortalErrorFilter } from './portal-error.filter';
import { PortalPages } from './portal-pages';
import { PortalRecords } from './portal-records';
import { PortalSecret } from './portal-secret';
import { PortalSecurityMiddleware } from './portal-security.middleware';
import { PortalSessions } from './portal-session';
import { PortalSignIn } from './portal-sign-in';
import { PortalController } from './portal.controller';
import { QuoteLinksController } from './quotes/quote-links.controller';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PortalKey } from './entities/portal-key.entity';

/** The path prefixes of the portal's controllers (`portal`, and `r` for the hosted links). */
const PORTAL_PREFIXES = ['portal', 'r'];

/**
 * Everything a customer's browser reaches (DESIGN §6 "Mail, documents, portal"): the
 * hosted `url_*` links under /r and the portal under /portal. Browser security (helmet,
 * signed cookies, CSRF) applies to these controllers only; the API keeps its headers.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PortalKey]),
    ContactsModule,
    CustomersModule,
    InvoicesModule,
    PaymentsModule,
    PaymethodsModule,
    TransactionsModule,
    SubscriptionsModule,
    QuotesModule,
  ],
  controllers: [PortalController, DocumentsController, PayController, QuoteLinksController],
  providers: [
    PortalSecret,
    PortalSessions,
    PortalCsrf,
    PortalPages,
    PortalErrorFilter,
    PortalAccess,
    PortalRecords,
    PortalSignIn,
    DocumentsService,
    InvoicePayer,
    PaymethodSaver,
    CardEntry,
  ],
})
export class PortalModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // A plain path is mounted once with Express `use` (its sub-paths included), not once
    // per portal route: every API request walked one router layer per portal route.
    consumer.apply(PortalSecurityMiddleware).forRoutes(...PORTAL_PREFIXES);
  }
}
