import { MigrationInterface, QueryRunner, TableColumnOptions } from 'typeorm';
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
  generatedId,
  int,
  single,
  TableSpec,
  text,
  varchar,
} from './schema-builders';

/** Items with their tiersets and tiers, tax groups, invoices with lines, schedule and deliveries. */
export class CatalogAndInvoices1763800100000 implements MigrationInterface {
  name = 'CatalogAndInvoices1763800100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

function date(name: string, options: { nullable?: boolean } = {}): TableColumnOptions {
  return { name, type: 'date', isNullable: options.nullable ?? false };
}

const amount = (name: string) => decimal(name, 18, 2);
const rate = (name: string) => decimal(name, 18, 6);

function address(prefix: 'bill' | 'ship'): TableColumnOptions[] {
  return [
    varchar(`${prefix}_addr1`, 255, { nullable: true }),
    varchar(`${prefix}_addr2`, 255, { nullable: true }),
    varchar(`${prefix}_addr3`, 255, { nullable: true }),
    varchar(`${prefix}_city`, 128, { nullable: true }),
    varchar(`${prefix}_state`, 128, { nullable: true }),
    varchar(`${prefix}_postcode`, 32, { nullable: true }),
    varchar(`${prefix}_country`, 128, { nullable: true }),
    varchar(`${prefix}_notes`, 255, { nullable: true }),
  ];
}

const TABLES: TableSpec[] = [
  {
    name: 'tax_group',
    columns: [generatedId('tax_group_id'), varchar('tax_group_name', 128), int('tax_id')],
    indices: [],
  },
  {
    name: 'item',
    columns: [
      generatedId('item_id'),
      ...deletableRecordColumns(),
      varchar('item_type', 16),
      varchar('name', 255),
      text('description', { nullable: true }),
      varchar('units', 64, { nullable: true }),
      varchar('units_plural', 64, { nullable: true }),
      boolean('enabled', true),
      varchar('accounting_sku', 255, { nullable: true }),
      int('tax_group_id', { nullable: true }),
      int('expire_recurs', { nullable: true }),
      int('trial_recurs', { nullable: true }),
      int('trial_days', { default: 0 }),
      boolean('is_usage', false),
      ...customColumns(3),
    ],
    indices: [
      ...deletableRecordIndices(),
      ...single('item_type', 'name', 'enabled', 'accounting_sku'),
      ...customIndices(3),
    ],
  },
  {
    name: 'tierset',
    columns: [
      generatedId('tierset_id'),
      int('item_id', { nullable: true }),
      boolean('is_current', true),
      int('currency_id', { default: 1 }),
      amount('setup'),
      amount('base'),
      amount('minimum'),
      rate('percent'),
      varchar('paycycle', 8),
      varchar('pricemodel', 8),
      datetime('write_datetime'),
      datetime('mod_datetime'),
    ],
    indices: [{ columns: ['item_id', 'is_current'] }],
  },
  {
    name: 'tier',
    columns: [
      generatedId('tier_id'),
      int('tierset_id'),
      rate('unit_from'),
      { ...rate('unit_to'), isNullable: true },
      rate('amount'),
    ],
    indices: single('tierset_id'),
  },
  {
    name: 'invoice',
    columns: [
      generatedId('invoice_id'),
      ...deletableRecordColumns(),
      int('customer_id'),
      int('package_id', { nullable: true }),
      varchar('refnumber', 64, { nullable: true }),
      date('date'),
      date('due_date'),
      int('currency_id', { default: 1 }),
      int('class_id', { nullable: true }),
      varchar('paycycle', 8, { default: 'one' }),
      int('terms_id', { default: 3 }),
      int('admin_id', { nullable: true }),
      int('brand_id', { default: 1 }),
      ...address('bill'),
      ...address('ship'),
      text('memo', { nullable: true }),
      text('tags', { nullable: true }),
      date('cycle_pre_from_date', { nullable: true }),
      date('cycle_pre_to_date', { nullable: true }),
      date('cycle_this_date', { nullable: true }),
      date('cycle_post_from_date', { nullable: true }),
      date('cycle_post_to_date', { nullable: true }),
      amount('subtotal'),
      amount('taxes'),
      amount('total'),
      amount('sum_base'),
      amount('sum_usage'),
      amount('sum_onetime'),
      varchar('invoice_status_str', 32, { default: 'open-unpaid' }),
      boolean('in_collections', false),
      datetime('void_datetime', { nullable: true }),
      ...customColumns(20),
    ],
    indices: [
      ...deletableRecordIndices(),
      ...single(
        'customer_id',
        'package_id',
        'refnumber',
        'date',
        'due_date',
        'currency_id',
        'bill_state',
        'bill_country',
        'ship_state',
        'ship_country',
        'invoice_status_str',
      ),
      ...customIndices(3),
    ],
  },
  {
    name: 'invoice_line',
    columns: [
      generatedId('line_item_id'),
      int('invoice_id'),
      int('item_id'),
      int('tierset_id', { nullable: true }),
      int('package_line_id', { nullable: true }),
      int('admin_id', { nullable: true }),
      int('sort_order', { default: 0 }),
      text('descrip', { nullable: true }),
      varchar('paycycle', 8, { default: 'one' }),
      rate('line_rate'),
      rate('line_quantity'),
      rate('line_usage'),
      { ...decimal('line_prorate', 18, 9), isNullable: true },
      amount('line_subtotal'),
      amount('line_total'),
      amount('tax_taxable'),
      amount('tax_taxed'),
      amount('tax_total'),
      int('tax_id', { nullable: true }),
      int('tax_group_id', { nullable: true }),
      datetime('usage_from', { nullable: true }),
      datetime('usage_to', { nullable: true }),
      boolean('is_base', false),
      boolean('is_setup', false),
      boolean('is_usage', false),
      boolean('is_free', false),
      boolean('is_recurring', false),
      boolean('is_taxed', false),
      boolean('is_latefee', false),
      boolean('is_obligation', false),
      ...customColumns(10),
    ],
    indices: [...single('invoice_id', 'item_id'), ...customIndices(3)],
  },
  {
    name: 'invoice_schedule',
    columns: [
      generatedId('invoice_schedule_id'),
      int('invoice_id'),
      varchar('token', 12),
      varchar('paymethod', 8, { default: 'inv' }),
      int('creditcard_id', { nullable: true }),
      int('ach_id', { nullable: true }),
      int('tokenized_id', { nullable: true }),
      date('due_date'),
      amount('amount'),
      datetime('write_datetime'),
    ],
    indices: [...single('invoice_id'), { columns: ['token'], unique: true }],
  },
  {
    name: 'invoice_delivery',
    columns: [
      generatedId('invoice_delivery_id'),
      int('invoice_id'),
      varchar('method', 8),
      varchar('to_addr', 1024, { nullable: true }),
      int('mail_message_id', { nullable: true }),
      datetime('write_datetime'),
    ],
    indices: single('invoice_id'),
  },
];
