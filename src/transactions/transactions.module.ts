import { Module } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { InvoicesModule } from 'src/invoices/invoices.module';
import { PaymentsModule } from 'src/payments/payments.module';
import { PaymethodsModule } from 'src/paymethods/paymethods.module';
import { AchSettlementJob } from './ach-settlement.job';
import { ChargeAttempts } from './charge-attempts';
import { CustomerCredit } from './customer-credit';
import { CustomerPaymentsExtension } from './customer-payments.extension';
import { TransactionCustomerDeletion } from './transaction-customer-deletion';
import { InvoiceApplicationsCheck } from './invoice-applications-check';
import { SentPaymethod } from './sent-paymethod';
import { InvoiceApplier } from './invoice-applier';
import { InvoiceLedger } from './invoice-ledger';
import { InvoicePayAction } from './invoice-pay.action';
import { InvoicesLedger } from './invoices-ledger';
import { PaymentAttemptSweeper } from './payment-attempt-sweeper';
import { PaymentSources } from './payment-sources';
import { PaymentService } from './payment.service';
import { SubscriptionPaymethods } from './subscription-paymethod';
import { RefundAttempts } from './refund-attempts';
import { TransactionActionsService } from './transaction-actions.service';
import { TransactionCustomerActivity } from './transaction-customer-activity';
import { TransactionReceiptService } from './transaction-receipt.service';
import { TransactionWriter } from './transaction-writer';
import { TransactionPresenter } from './transaction.presenter';
import { TransactionsController } from './transactions.controller';
import { StripeEvents } from './gateway-webhooks/stripe-events';
import { StripeWebhookController } from './gateway-webhooks/stripe-webhook.controller';
import { TransactionsService } from './transactions.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Transaction } from './entities/transaction.entity';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { PaymentAttempt } from './entities/payment-attempt.entity';
import { GatewayDispute } from './entities/gateway-dispute.entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([Transaction, TransactionApplied, PaymentAttempt, GatewayDispute]),
    CustomersModule,
    InvoicesModule,
    PaymentsModule,
    PaymethodsModule,
  ],
  controllers: [TransactionsController, StripeWebhookController],
  providers: [
    TransactionsService,
    TransactionPresenter,
    TransactionWriter,
    TransactionActionsService,
    TransactionReceiptService,
    PaymentService,
    ChargeAttempts,
    RefundAttempts,
    PaymentAttemptSweeper,
    PaymentSources,
    InvoiceApplier,
    AchSettlementJob,
    CustomerPaymentsExtension,
    CustomerCredit,
    TransactionCustomerDeletion,
    InvoiceApplicationsCheck,
    SentPaymethod,
    TransactionCustomerActivity,
    InvoicePayAction,
    StripeEvents,
    { provide: InvoiceLedger, useClass: InvoicesLedger },
    SubscriptionPaymethods,
  ],
  exports: [PaymentService, TransactionsService, PaymentAttemptSweeper, ChargeAttempts, PaymentSources],
})
export class TransactionsModule {}
