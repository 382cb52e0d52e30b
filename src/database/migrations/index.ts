import { MigrationInterface } from 'typeorm';
import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { SeedReferenceData1763800000001 } from './1763800000001-seed-reference-data';
import { CatalogAndInvoices1763800100000 } from './1763800100000-catalog-and-invoices';
import { Payments1763800200000 } from './1763800200000-payments';
import { Webhooks1763800300000 } from './1763800300000-webhooks';
import { NightlyRuns1763800400000 } from './1763800400000-nightly-runs';
import { TextIgnoresCase1764000500000 } from './1764000500000-text-ignores-case';

/** Every migration, in order (explicit list: works from src and dist alike). */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  InitialSchema1763800000000,
  SeedReferenceData1763800000001,
  CatalogAndInvoices1763800100000,
  Payments1763800200000,
  Webhooks1763800300000,
  NightlyRuns1763800400000,
  TextIgnoresCase1764000500000,
];
