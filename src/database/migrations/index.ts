import { MigrationInterface } from 'typeorm';
import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { SeedReferenceData1763800000001 } from './1763800000001-seed-reference-data';
import { Payments1763800200000 } from './1763800200000-payments';

/** Every migration, in order (explicit list: works from src and dist alike). */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  InitialSchema1763800000000,
  SeedReferenceData1763800000001,
  Payments1763800200000,
];
