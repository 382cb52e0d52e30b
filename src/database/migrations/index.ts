import { MigrationInterface } from 'typeorm';
import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { SeedReferenceData1763800000001 } from './1763800000001-seed-reference-data';
import { CatalogAndInvoices1763800100000 } from './1763800100000-catalog-and-invoices';
import { Payments1763800200000 } from './1763800200000-payments';
import { Webhooks1763800300000 } from './1763800300000-webhooks';
import { NightlyRuns1763800400000 } from './1763800400000-nightly-runs';
import { PaymentAttempts1764000100000 } from './1764000100000-payment-attempts';
import { InvoiceLineOrigin1764000200000 } from './1764000200000-invoice-line-origin';
import { Subscriptions1764000300000 } from './1764000300000-subscriptions';
import { PortalKey1764000700000 } from './1764000700000-portal-key';
import { TextIgnoresCase1764000500000 } from './1764000500000-text-ignores-case';
import { UsageRecords1764000900000 } from './1764000900000-usage-records';
import { IdempotencyKeys1764000100001 } from './1764000100001-idempotency-keys';
import { Quotes1764000300001 } from './1764000300001-quotes';
import { PackageMrr1764000300002 } from './1764000300002-package-mrr';
import { BillingRuns1764001000000 } from './1764001000000-billing-runs';
import { InvoiceCollections1764001100000 } from './1764001100000-invoice-collections';
import { InvoiceOverdueIndex1764001200000 } from './1764001200000-invoice-overdue-index';
import { CustomerActivityIndexes1764001400000 } from './1764001400000-customer-activity-indexes';
import { IdempotencyKeyCase1795792691255 } from './1795792691255-idempotency-key-case';

/** Every migration, in order (explicit list: works from src and dist alike). */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  InitialSchema1763800000000,
  SeedReferenceData1763800000001,
  CatalogAndInvoices1763800100000,
  Payments1763800200000,
  Webhooks1763800300000,
  NightlyRuns1763800400000,
  PaymentAttempts1764000100000,
  InvoiceLineOrigin1764000200000,
  Subscriptions1764000300000,
  TextIgnoresCase1764000500000,
  PortalKey1764000700000,
  UsageRecords1764000900000,
  IdempotencyKeys1764000100001,
  Quotes1764000300001,
  PackageMrr1764000300002,
  BillingRuns1764001000000,
  InvoiceCollections1764001100000,
  InvoiceOverdueIndex1764001200000,
  CustomerActivityIndexes1764001400000,
  IdempotencyKeyCase1795792691255,
];
