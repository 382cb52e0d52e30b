import { InvoiceCollection } from 'src/billing-runs/collection/invoice-collection.entity';
import { NightlyRun } from 'src/billing-runs/nightly/nightly-run.entity';
import { QuoteLine } from 'src/quotes/entities/quote-line.entity';
import { Quote } from 'src/quotes/entities/quote.entity';
import { BillingCycle } from 'src/subscriptions/entities/billing-cycle.entity';
import { PendingProration } from 'src/subscriptions/entities/pending-proration.entity';
import { SubscriptionLine } from 'src/subscriptions/entities/subscription-line.entity';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { UsageRecord } from 'src/usage/entities/usage-record.entity';
import { ApiCredential } from 'src/core/auth/api-credential.entity';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { IdempotencyKey } from 'src/core/idempotency/idempotency-key.entity';
import { Revision } from 'src/core/revisions/revision.entity';
import { Customer } from 'src/customers/entities/customer.entity';
import { Contact } from 'src/customers/entities/contact.entity';
import { LoginToken } from 'src/contacts/entities/login-token.entity';
import { MailMessage } from 'src/mail/entities/mail-message.entity';
import { Item } from 'src/items/entities/item.entity';
import { Tier } from 'src/items/entities/tier.entity';
import { Tierset } from 'src/items/entities/tierset.entity';
import { TaxGroup } from 'src/taxes/entities/tax-group.entity';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { InvoiceDelivery } from 'src/invoices/entities/invoice-delivery.entity';
import { InvoiceLine } from 'src/invoices/entities/invoice-line.entity';
import { InvoiceSchedule } from 'src/invoices/entities/invoice-schedule.entity';
import { AchAccount } from 'src/paymethods/entities/ach-account.entity';
import { CreditCard } from 'src/paymethods/entities/credit-card.entity';
import { TokenizedPaymethod } from 'src/paymethods/entities/tokenized-paymethod.entity';
import { PaymentAttempt } from 'src/transactions/entities/payment-attempt.entity';
import { TransactionApplied } from 'src/transactions/entities/transaction-applied.entity';
import { Transaction } from 'src/transactions/entities/transaction.entity';
import { GatewayDispute } from 'src/transactions/entities/gateway-dispute.entity';
import {
  AccountClass,
  Admin,
  Brand,
  Country,
  Currency,
  Language,
  Tax,
  Terms,
  UserType,
} from 'src/reference/entities/reference.entities';
import { PortalKey } from 'src/portal/entities/portal-key.entity';
import { GatewayEvent } from 'src/payments/gateway-event.entity';
import { StripeCustomer } from 'src/payments/stripe/stripe-customer.entity';
import { AccountSecret } from 'src/webhooks/entities/account-secret.entity';
import { Webhook } from 'src/webhooks/entities/webhook.entity';
import { WebhookAttempt } from 'src/webhooks/entities/webhook-attempt.entity';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';

/**
 * Every entity, listed once at the composition root for the app, the TypeORM CLI and the
 * migration check (no globs: works from src and dist). A new module adds its entities here,
 * never in database/, which knows no feature.
 */
export const APP_ENTITIES = [
  ApiCredential,
  IdempotencyKey,
  Revision,
  DomainEvent,
  MailMessage,
  Currency,
  Terms,
  Country,
  Brand,
  AccountClass,
  Admin,
  Language,
  UserType,
  Tax,
  Customer,
  Contact,
  LoginToken,
  Webhook,
  WebhookDelivery,
  WebhookAttempt,
  AccountSecret,
  PortalKey,
  TaxGroup,
  Item,
  Tierset,
  Tier,
  Invoice,
  InvoiceLine,
  InvoiceSchedule,
  InvoiceDelivery,
  CreditCard,
  AchAccount,
  TokenizedPaymethod,
  PaymentAttempt,
  Transaction,
  TransactionApplied,
  StripeCustomer,
  GatewayEvent,
  GatewayDispute,
  NightlyRun,
  InvoiceCollection,
  Subscription,
  UsageRecord,
  SubscriptionLine,
  PendingProration,
  BillingCycle,
  Quote,
  QuoteLine,
];
