import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createTables,
  customColumns,
  customIndices,
  datetime,
  decimal,
  deletableRecordColumns,
  deletableRecordIndices,
  dropTables,
  generatedId,
  int,
  single,
  TableSpec,
  text,
  varchar,
} from './schema-builders';

/** Subscriptions (`/package`), their lines and the prorations waiting for the next invoice. */
export class Subscriptions1764000300000 implements MigrationInterface {
  name = 'Subscriptions1764000300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const address = (prefix: 'bill' | 'ship') => [
  varchar(`${prefix}_addr1`, 255, { nullable: true }),
  varchar(`${prefix}_addr2`, 255, { nullable: true }),
  varchar(`${prefix}_addr3`, 255, { nullable: true }),
  varchar(`${prefix}_city`, 128, { nullable: true }),
  varchar(`${prefix}_state`, 128, { nullable: true }),
  varchar(`${prefix}_postcode`, 32, { nullable: true }),
  varchar(`${prefix}_country`, 128, { nullable: true }),
  varchar(`${prefix}_notes`, 255, { nullable: true }),
];

const TABLES: TableSpec[] = [
  {
    name: 'package',
    columns: [
      generatedId('package_id'),
      // A subscription is never deleted: BaseRecord without the soft-delete column.
      ...deletableRecordColumns().filter((c) => c.name !== 'deleted_datetime'),
      int('customer_id'),
      varchar('nickname', 255, { default: '' }),
      varchar('paymethod', 8, { default: 'inv' }),
      varchar('paycycle', 8, { default: 'mon' }),
      int('terms_id', { default: 3 }),
      int('class_id', { nullable: true }),
      int('admin_id', { nullable: true }),
      int('currency_id', { default: 1 }),
      int('brand_id', { default: 1 }),
      int('creditcard_id', { nullable: true }),
      int('ach_id', { nullable: true }),
      int('tokenized_id', { nullable: true }),
      ...address('bill'),
      ...address('ship'),
      datetime('start_datetime'),
      datetime('suspendfrom_datetime', { nullable: true }),
      datetime('suspendto_datetime', { nullable: true }),
      datetime('cancel_datetime', { nullable: true }),
      datetime('holduntil_datetime', { nullable: true }),
      datetime('next_invoice_datetime', { nullable: true }),
      varchar('cancel_reason', 255, { nullable: true }),
      varchar('package_status_str', 32, { default: 'active' }),
      ...customColumns(5),
    ],
    indices: [
      ...deletableRecordIndices(),
      ...single('customer_id', 'nickname', 'paymethod', 'paycycle', 'next_invoice_datetime', 'package_status_str'),
      ...customIndices(3),
    ],
  },
  {
    name: 'package_line',
    columns: [
      generatedId('line_item_id'),
      int('package_id'),
      int('item_id'),
      int('tierset_id', { nullable: true }),
      int('admin_id', { nullable: true }),
      varchar('external_key', 255, { nullable: true }),
      varchar('nickname', 255, { default: '' }),
      text('descrip', { nullable: true }),
      decimal('line_quantity', 18, 6),
      int('trial_days', { default: 0 }),
      int('trial_recurs', { nullable: true }),
      datetime('trial_end_datetime', { nullable: true }),
      int('trial_units', { default: 0 }),
      datetime('subscribe_datetime'),
      datetime('subscribe_prorate_from_datetime', { nullable: true }),
      datetime('subscribe_prorate_to_datetime', { nullable: true }),
      datetime('cancel_datetime', { nullable: true }),
      datetime('expire_datetime', { nullable: true }),
      int('expire_recurs', { nullable: true }),
      int('invoices_billed', { default: 0 }),
      varchar('license', 255, { default: '' }),
      ...customColumns(3),
    ],
    indices: single('package_id', 'item_id', 'external_key'),
  },
  {
    name: 'package_proration',
    columns: [
      generatedId('package_proration_id'),
      int('package_id'),
      int('package_line_id'),
      int('item_id'),
      int('tierset_id', { nullable: true }),
      text('descrip', { nullable: true }),
      decimal('amount', 18, 2),
      decimal('line_prorate', 18, 9),
      int('invoice_id', { nullable: true }),
      datetime('write_datetime'),
    ],
    indices: single('package_id', 'invoice_id'),
  },
];
