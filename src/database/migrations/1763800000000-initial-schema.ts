import { DefaultNamingStrategy, MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';

/**
 * The initial schema: every table of the entities as of this migration.
 *
 * Written only with the QueryRunner / Table API (no DDL strings) so the same code runs on
 * better-sqlite3 and MySQL/MariaDB. Portable spellings are chosen so both drivers read the
 * result back exactly as the entity metadata describes it:
 * - integers are `integer` (SQLite needs it for `PRIMARY KEY AUTOINCREMENT`; MySQL reads it back as `int`);
 * - booleans are `boolean` (MySQL stores `tinyint(1)`), JSON is `text` (what `simple-json` maps to);
 * - `@Index({ unique: true })` is a unique TableIndex (a UNIQUE INDEX on both drivers, never a UNIQUE constraint);
 * - the soft-delete column gets the precision TypeORM gives a @DeleteDateColumn on the driver (see `up`).
 *
 * Index names are TypeORM's default names (`IDX_` + sha1 of `<table>_<sorted columns>`), computed
 * with a fixed DefaultNamingStrategy so this migration never changes with the app's configuration.
 * `npm run migration:check` proves the result equals the entities on both databases.
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // TypeORM gives a @DeleteDateColumn the driver's default precision (MySQL: datetime(6); SQLite: none).
    const deleteDatePrecision = queryRunner.connection.driver.mappedDataTypes.deleteDatePrecision;
    for (const table of TABLES) {
      await queryRunner.createTable(
        new Table({
          name: table.name,
          columns: table.columns.map((column) =>
            column.name === DELETE_DATE_COLUMN ? { ...column, precision: deleteDatePrecision } : column,
          ),
          indices: table.indices.map(
            (index) =>
              new TableIndex({
                name: NAMING.indexName(table.name, index.columns),
                columnNames: index.columns,
                isUnique: index.unique ?? false,
              }),
          ),
        }),
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) {
      await queryRunner.dropTable(table.name, false, false, true);
    }
  }
}

const NAMING = new DefaultNamingStrategy();

/** The soft-delete column of DeletableRecord. */
const DELETE_DATE_COLUMN = 'deleted_datetime';

interface IndexSpec {
  columns: string[];
  unique?: boolean;
}

interface TableSpec {
  name: string;
  columns: TableColumnOptions[];
  indices: IndexSpec[];
}

type ColumnOptions = { nullable?: boolean };

function generatedId(name: string): TableColumnOptions {
  return { name, type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
}

function fixedId(name: string): TableColumnOptions {
  return { name, type: 'integer', isPrimary: true };
}

function int(name: string, options: ColumnOptions & { default?: number } = {}): TableColumnOptions {
  return { name, type: 'integer', isNullable: options.nullable ?? false, default: options.default };
}

function varchar(name: string, length: number, options: ColumnOptions & { default?: string } = {}): TableColumnOptions {
  return {
    name,
    type: 'varchar',
    length: String(length),
    isNullable: options.nullable ?? false,
    default: options.default === undefined ? undefined : `'${options.default}'`,
  };
}

function datetime(name: string, options: ColumnOptions = {}): TableColumnOptions {
  return { name, type: 'datetime', isNullable: options.nullable ?? false };
}

function text(name: string, options: ColumnOptions = {}): TableColumnOptions {
  return { name, type: 'text', isNullable: options.nullable ?? false };
}

function boolean(name: string, defaultValue: boolean): TableColumnOptions {
  return { name, type: 'boolean', isNullable: false, default: defaultValue ? '1' : '0' };
}

function decimal(name: string, precision: number, scale: number): TableColumnOptions {
  return { name, type: 'decimal', precision, scale, isNullable: false };
}

/** token, external_key, write/mod stamps and the soft-delete column (DeletableRecord). */
function deletableRecordColumns(): TableColumnOptions[] {
  return [
    varchar('token', 12),
    varchar('external_key', 255, { nullable: true }),
    datetime('write_datetime'),
    varchar('write_ipaddr', 45, { nullable: true }),
    datetime('mod_datetime'),
    varchar('mod_ipaddr', 45, { nullable: true }),
    datetime(DELETE_DATE_COLUMN, { nullable: true }),
  ];
}

function deletableRecordIndices(): IndexSpec[] {
  return [
    { columns: ['token'], unique: true },
    { columns: ['external_key'], unique: true },
    { columns: ['write_datetime'] },
    { columns: ['mod_datetime'] },
  ];
}

function customColumns(count: number): TableColumnOptions[] {
  return Array.from({ length: count }, (_, i) => varchar(`custom_${i + 1}`, 255, { nullable: true }));
}

function customIndices(count: number): IndexSpec[] {
  return Array.from({ length: count }, (_, i) => ({ columns: [`custom_${i + 1}`] }));
}

function single(...columns: string[]): IndexSpec[] {
  return columns.map((column) => ({ columns: [column] }));
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
      datetime('dispatched_datetime', { nullable: true }),
    ],
    indices: [{ columns: ['dispatched_datetime', 'domain_event_id'] }],
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
