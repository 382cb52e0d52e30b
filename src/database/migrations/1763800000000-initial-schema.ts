import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  boolean,
  createTables,
  customColumns,
  customIndices,
  datetime,
  decimal,
  deletableRecordColumns,
  deletableRecordIndices,
  dropTables,
  fixedId,
  generatedId,
  int,
  single,
  TableSpec,
  text,
  varchar,
} from './schema-builders';

/**
 * The initial schema: every table of the entities as of this migration, built with the
 * portable table definitions of `schema-builders.ts` (one migration for SQLite and MySQL).
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

/** In creation order; `down` drops them in reverse. */
const TABLES: TableSpec[] = [
  {
    name: 'api_credential',
    columns: [
      generatedId('api_credential_id'),
      varchar('username', 128),
      varchar('secret_sha256', 64),
      datetime('write_datetime'),
    ],
    indices: [{ columns: ['username'], unique: true }],
  },
  {
    name: 'revision',
    columns: [
      generatedId('revision_id'),
      varchar('context_str', 32),
      int('context_id'),
      int('admin_id', { nullable: true }),
      int('user_id', { nullable: true }),
      int('integration_id', { nullable: true }),
      datetime('revision_datetime'),
      varchar('revision_ipaddr', 45, { nullable: true }),
      varchar('revision_note', 255),
      varchar('on_behalf_addr', 45, { nullable: true }),
      varchar('on_behalf_details', 255, { nullable: true }),
    ],
    indices: [{ columns: ['context_str', 'context_id', 'revision_id'] }],
  },
  {
    name: 'domain_event',
    columns: [
      generatedId('domain_event_id'),
      varchar('context_str', 32),
      varchar('context_id', 64),
      varchar('event', 32),
      text('data'),
      boolean('suppress_webhooks', false),
      datetime('event_datetime'),
    ],
    indices: [{ columns: ['context_str', 'context_id', 'domain_event_id'] }],
  },
  {
    name: 'mail_message',
    columns: [
      generatedId('mail_message_id'),
      varchar('context_str', 32, { nullable: true }),
      int('context_id', { nullable: true }),
      varchar('to_addr', 1024),
      varchar('cc_addr', 1024, { nullable: true }),
      varchar('bcc_addr', 1024, { nullable: true }),
      varchar('from_addr', 255),
      varchar('subject', 255),
      text('body'),
      varchar('status', 16),
      datetime('write_datetime'),
    ],
    indices: [{ columns: ['context_str', 'context_id'] }],
  },
  {
    name: 'currency',
    columns: [
      fixedId('currency_id'),
      varchar('currency_iso4217', 3),
      varchar('currency_symbol', 8),
      varchar('currency_name', 64),
    ],
    indices: [],
  },
  {
    name: 'terms',
    columns: [fixedId('terms_id'), varchar('terms_name', 64), int('terms_days')],
    indices: [],
  },
  {
    name: 'country',
    columns: [fixedId('country_id'), varchar('iso2', 2), varchar('name', 64)],
    indices: [],
  },
  {
    name: 'brand',
    columns: [fixedId('brand_id'), varchar('brand_name', 128)],
    indices: [],
  },
  {
    name: 'class',
    columns: [fixedId('class_id'), varchar('class_name', 128)],
    indices: [],
  },
  {
    name: 'admin',
    columns: [fixedId('admin_id'), varchar('admin_name', 128), varchar('admin_email', 255)],
    indices: [],
  },
  {
    name: 'language',
    columns: [fixedId('language_id'), varchar('language_name', 64), varchar('language_iso639', 8)],
    indices: [],
  },
  {
    name: 'user_type',
    columns: [fixedId('user_type_id'), varchar('user_type_name', 64)],
    indices: [],
  },
  {
    name: 'tax',
    columns: [generatedId('tax_id'), varchar('tax_name', 128), decimal('tax_rate', 18, 6)],
    indices: [],
  },
  {
    name: 'customer',
    columns: [
      generatedId('customer_id'),
      ...deletableRecordColumns(),
      int('parent_customer_id', { nullable: true }),
      varchar('company', 255, { nullable: true }),
      int('language_id', { default: 1 }),
      int('currency_id', { default: 1 }),
      int('class_id', { nullable: true }),
      int('admin_id', { nullable: true }),
      int('campaign_id', { nullable: true }),
      int('brand_id', { default: 1 }),
      int('terms_id', { default: 3 }),
      varchar('campaign_details', 255, { nullable: true }),
      int('superuser_id', { nullable: true }),
      varchar('bill_addr1', 255, { nullable: true }),
      varchar('bill_addr2', 255, { nullable: true }),
      varchar('bill_addr3', 255, { nullable: true }),
      varchar('bill_city', 128, { nullable: true }),
      varchar('bill_state', 128, { nullable: true }),
      varchar('bill_postcode', 32, { nullable: true }),
      varchar('bill_country', 128, { nullable: true }),
      varchar('ship_addr1', 255, { nullable: true }),
      varchar('ship_addr2', 255, { nullable: true }),
      varchar('ship_addr3', 255, { nullable: true }),
      varchar('ship_city', 128, { nullable: true }),
      varchar('ship_state', 128, { nullable: true }),
      varchar('ship_postcode', 32, { nullable: true }),
      varchar('ship_country', 128, { nullable: true }),
      boolean('no_taxes', false),
      boolean('no_dunning', false),
      boolean('no_latefees', false),
      boolean('no_procfees', false),
      varchar('invoice_delivery', 8, { default: 'email' }),
      varchar('dunning_delivery', 8, { default: 'email' }),
      varchar('tax_ident', 64, { nullable: true }),
      text('tags', { nullable: true }),
      varchar('customer_status_str', 32, { default: 'active-current' }),
      varchar('default_paymethod', 8, { nullable: true }),
      int('default_creditcard_id', { nullable: true }),
      int('default_ach_id', { nullable: true }),
      int('default_tokenized_id', { nullable: true }),
      ...customColumns(20),
    ],
    indices: [
      ...deletableRecordIndices(),
      ...single(
        'parent_customer_id',
        'company',
        'superuser_id',
        'bill_state',
        'bill_country',
        'ship_state',
        'ship_country',
        'customer_status_str',
      ),
      ...customIndices(5),
    ],
  },
  {
    name: 'user',
    columns: [
      generatedId('user_id'),
      ...deletableRecordColumns(),
      int('customer_id'),
      varchar('username', 255),
      varchar('password_hash', 255, { nullable: true }),
      varchar('name', 255, { nullable: true }),
      varchar('first_name', 128, { nullable: true }),
      varchar('middle_name_glob', 128, { nullable: true }),
      varchar('last_name', 128, { nullable: true }),
      varchar('name_suffix', 32, { nullable: true }),
      varchar('title', 128, { nullable: true }),
      varchar('email', 255, { nullable: true }),
      varchar('phone', 64, { nullable: true }),
      varchar('mobile', 64, { nullable: true }),
      int('user_type_id', { default: 1 }),
      ...customColumns(20),
    ],
    indices: [
      ...deletableRecordIndices(),
      { columns: ['username'], unique: true },
      ...single('customer_id', 'first_name', 'last_name', 'email', 'phone', 'user_type_id'),
    ],
  },
  {
    name: 'login_token',
    columns: [
      generatedId('login_token_id'),
      int('user_id'),
      varchar('token_sha256', 64),
      varchar('purpose', 16),
      varchar('destination', 32, { nullable: true }),
      datetime('expires_datetime'),
      datetime('used_datetime', { nullable: true }),
    ],
    indices: [{ columns: ['token_sha256'], unique: true }, ...single('user_id')],
  },
];
