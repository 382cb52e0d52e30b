import { MigrationInterface, QueryRunner } from 'typeorm';
import { createRowTriggers, dropRowTriggers, RowTrigger } from 'src/database/migrations/row-triggers';
import {
  createTables,
  datetime,
  decimal,
  dropTables,
  fixedId,
  int,
  tableIndex,
  TableSpec,
} from 'src/database/migrations/schema-builders';
import { isSqlite } from 'src/database/migrations/sqlite-text-collation';

/**
 * The `receivables` report's copy of the open invoices (entities/open-invoice.entity.ts):
 * the table, the open invoices there are, and the row triggers that keep it in step. With
 * 1.6 million invoices, 216,000 of them open, the report read the open ones through an
 * index and looked up the applications of each (1.3 s on a loaded host, 6 s per customer);
 * it now reads this narrow table and looks up applications only where there are any, and
 * the index it read through goes.
 * Frozen here as of this migration: an invoice is open while its status starts `open-`
 * and it is not deleted.
 */
export class OpenInvoices1795810000004 implements MigrationInterface {
  name = 'OpenInvoices1795810000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
    await queryRunner.query(
      `INSERT INTO open_invoice (${COLUMNS.join(', ')})
       SELECT ${COLUMNS.slice(0, -1)
         .map((c) => `i.${c}`)
         .join(', ')},
         CASE WHEN EXISTS (SELECT 1 FROM transaction_applied ta WHERE ta.invoice_id = i.invoice_id) THEN 1 ELSE 0 END
       FROM invoice i WHERE ${isOpen('i.')}`,
    );
    await createRowTriggers(queryRunner, triggers(queryRunner));
    await queryRunner.dropIndex('invoice', tableIndex('invoice', OPEN_BALANCES).name!);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('invoice', tableIndex('invoice', OPEN_BALANCES));
    await dropRowTriggers(queryRunner, triggers(queryRunner));
    await dropTables(queryRunner, TABLES);
  }
}

/** The invoice index (migration ReceivablesIndex) the report read open invoices through; this table replaces it. */
const OPEN_BALANCES = {
  columns: [
    'invoice_status_str',
    'due_date',
    'currency_id',
    'customer_id',
    'total',
    'date',
    'void_datetime',
    'deleted_datetime',
  ],
};

const COLUMNS = [
  'invoice_id',
  'currency_id',
  'customer_id',
  'date',
  'due_date',
  'total',
  'void_datetime',
  'has_applications',
];

const TABLES: TableSpec[] = [
  {
    name: 'open_invoice',
    columns: [
      fixedId('invoice_id'),
      int('currency_id'),
      int('customer_id'),
      { name: 'date', type: 'date', isNullable: false },
      { name: 'due_date', type: 'date', isNullable: false },
      decimal('total', 18, 2),
      datetime('void_datetime', { nullable: true }),
      int('has_applications', { default: 0 }),
    ],
    indices: [],
  },
];

const isOpen = (r: string) => `${r}invoice_status_str LIKE 'open-%' AND ${r}deleted_datetime IS NULL`;

/** The invoice's row (`NEW.`) into the copy while it is open; `when` limits it further. */
function copy(q: QueryRunner, when: string): string {
  const applied =
    'CASE WHEN EXISTS (SELECT 1 FROM transaction_applied ta WHERE ta.invoice_id = NEW.invoice_id) THEN 1 ELSE 0 END';
  const values = [...COLUMNS.slice(0, -1).map((c) => `NEW.${c}`), applied];
  return `INSERT INTO open_invoice (${COLUMNS.join(', ')}) SELECT ${values.join(', ')}${isSqlite(q) ? '' : ' FROM DUAL'} WHERE ${isOpen('NEW.')}${when}`;
}

function triggers(q: QueryRunner): RowTrigger[] {
  const changed =
    ' AND (OLD.invoice_status_str <> NEW.invoice_status_str OR OLD.currency_id <> NEW.currency_id' +
    ' OR OLD.customer_id <> NEW.customer_id OR OLD.date <> NEW.date OR OLD.due_date <> NEW.due_date' +
    ' OR OLD.total <> NEW.total OR (OLD.deleted_datetime IS NULL) <> (NEW.deleted_datetime IS NULL)' +
    ' OR (OLD.void_datetime IS NULL) <> (NEW.void_datetime IS NULL) OR OLD.void_datetime <> NEW.void_datetime)';
  const flag = (r: string) => `UPDATE open_invoice SET has_applications = 1 WHERE invoice_id = ${r}invoice_id`;
  return [
    { name: 'invoice_open_insert', table: 'invoice', event: 'INSERT', statements: [copy(q, '')] },
    {
      name: 'invoice_open_update',
      table: 'invoice',
      event: 'UPDATE',
      statements: [`DELETE FROM open_invoice WHERE invoice_id = OLD.invoice_id${changed}`, copy(q, changed)],
    },
    {
      name: 'invoice_open_delete',
      table: 'invoice',
      event: 'DELETE',
      statements: ['DELETE FROM open_invoice WHERE invoice_id = OLD.invoice_id'],
    },
    // Money applied once marks the invoice for good: a later removal leaves a superset, summed exactly.
    {
      name: 'transaction_applied_open_insert',
      table: 'transaction_applied',
      event: 'INSERT',
      statements: [flag('NEW.')],
    },
    {
      name: 'transaction_applied_open_update',
      table: 'transaction_applied',
      event: 'UPDATE',
      statements: [flag('NEW.')],
    },
  ];
}
