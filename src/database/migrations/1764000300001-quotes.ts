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

/** Quotes and their lines. */
export class Quotes1764000300001 implements MigrationInterface {
  name = 'Quotes1764000300001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const amount = (name: string) => decimal(name, 18, 2);
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
    name: 'quote',
    columns: [
      generatedId('quote_id'),
      // A quote is never deleted: BaseRecord without the soft-delete column.
      ...deletableRecordColumns().filter((c) => c.name !== 'deleted_datetime'),
      int('customer_id'),
      varchar('refnumber', 64, { nullable: true }),
      varchar('paycycle', 8),
      varchar('nickname', 255, { default: '' }),
      { name: 'date', type: 'date', isNullable: false },
      { name: 'validuntil_date', type: 'date', isNullable: true },
      varchar('holduntil_datetime_str', 64, { nullable: true }),
      int('currency_id', { default: 1 }),
      int('terms_id', { default: 3 }),
      int('class_id', { nullable: true }),
      int('brand_id', { default: 1 }),
      int('admin_id', { nullable: true }),
      ...address('bill'),
      ...address('ship'),
      varchar('url_acceptredirect', 1024, { nullable: true }),
      varchar('url_rejectredirect', 1024, { nullable: true }),
      text('memo', { nullable: true }),
      amount('subtotal'),
      amount('setup'),
      amount('taxes'),
      amount('total'),
      amount('upfront'),
      varchar('quote_status_str', 32, { default: 'open-new' }),
      datetime('won_datetime', { nullable: true }),
      datetime('lost_datetime', { nullable: true }),
      int('invoice_id', { nullable: true }),
      int('package_id', { nullable: true }),
      ...customColumns(20),
    ],
    indices: [
      ...deletableRecordIndices(),
      ...single('customer_id', 'refnumber', 'paycycle', 'date', 'quote_status_str'),
      ...customIndices(3),
    ],
  },
  {
    name: 'quote_line',
    columns: [
      generatedId('line_item_id'),
      int('quote_id'),
      int('item_id'),
      int('tierset_id', { nullable: true }),
      int('sort_order', { default: 0 }),
      text('descrip', { nullable: true }),
      { ...decimal('line_rate', 18, 6), isNullable: true },
      decimal('line_quantity', 18, 6),
      int('expire_recurs', { nullable: true }),
      datetime('subscribe_prorate_from_datetime', { nullable: true }),
      datetime('subscribe_prorate_to_datetime', { nullable: true }),
      amount('line_subtotal'),
      amount('line_setup'),
      amount('line_tax'),
      amount('line_total'),
      ...customColumns(20),
    ],
    indices: single('quote_id', 'item_id'),
  },
];
