import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  addingUpsert,
  centsOf,
  createRowTriggers,
  dropRowTriggers,
  RowTrigger,
} from 'src/database/migrations/row-triggers';
import { isSqlite } from 'src/database/migrations/sqlite-text-collation';
import {
  createTables,
  dropTables,
  generatedId,
  int,
  TableSpec,
  varchar,
} from 'src/database/migrations/schema-builders';

/**
 * The `usage` report's rollup (entities/usage-month.entity.ts): the table, the sums of the
 * usage lines there are, and the row triggers that keep it in step from then on. With
 * 100,000 subscriptions over three years the report joined 330,000 usage lines to their
 * invoices (5.5 s on MariaDB); it now reads a few hundred rows. Frozen here as of this
 * migration: a usage line counts, in its invoice's currency and month, while the invoice
 * is neither void nor deleted.
 */
export class UsageRollup1795810000002 implements MigrationInterface {
  name = 'UsageRollup1795810000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
    await backfill(queryRunner);
    await createRowTriggers(queryRunner, triggers(queryRunner));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropRowTriggers(queryRunner, triggers(queryRunner));
    await dropTables(queryRunner, TABLES);
  }
}

const SHARDS = 16;
const bigint = (name: string) => ({ name, type: 'bigint', default: 0 });
const KEYS = ['currency_id', 'month', 'item_id', 'shard'];
const SUMS = ['line_count', 'units_micro', 'amount_cents'];

const TABLES: TableSpec[] = [
  {
    name: 'usage_month',
    columns: [
      generatedId('usage_month_id'),
      int('currency_id'),
      varchar('month', 7),
      int('item_id'),
      int('shard'),
      ...SUMS.map(bigint),
    ],
    indices: [{ columns: KEYS, unique: true }],
  },
];

/** The exact integer millionths of a 6-decimal quantity (as centsOf, for units). */
function microsOf(q: QueryRunner, units: string): string {
  return isSqlite(q) ? `CAST(ROUND((${units}) * 1000000) AS INTEGER)` : `ROUND((${units}) * 1000000)`;
}

/** Whether an invoice's lines count: `r` is the invoice's columns (`NEW.`, `OLD.` or an alias). */
const counts = (r: string) => `${r}void_datetime IS NULL AND ${r}deleted_datetime IS NULL`;

/** A line's own row (`NEW.` or `OLD.`) added (sign '') or taken off ('-'), while its invoice counts. */
function lineStatement(q: QueryRunner, r: 'NEW.' | 'OLD.', sign: '' | '-', when: string): string {
  const invoice = (column: string) => `(SELECT ${column} FROM invoice WHERE invoice_id = ${r}invoice_id)`;
  return addingUpsert(
    q,
    'usage_month',
    {
      currency_id: invoice('currency_id'),
      month: invoice('SUBSTR(date, 1, 7)'),
      item_id: `${r}item_id`,
      shard: `${r}invoice_id % ${SHARDS}`,
    },
    {
      line_count: `${sign}1`,
      units_micro: `${sign}(${microsOf(q, `${r}line_usage`)})`,
      amount_cents: `${sign}(${centsOf(q, `${r}line_total`)})`,
    },
    `${r}is_usage = 1 AND EXISTS (SELECT 1 FROM invoice i WHERE i.invoice_id = ${r}invoice_id AND ${counts('i.')})${when}`,
  );
}

/** An invoice's usage lines added or taken off at once (its row `r`), while it counts. */
function invoiceStatement(q: QueryRunner, r: 'NEW.' | 'OLD.', sign: '' | '-', when: string): string {
  const added = SUMS.map((c) => (isSqlite(q) ? `${c} = ${c} + excluded.${c}` : `${c} = ${c} + VALUES(${c})`)).join(
    ', ',
  );
  return `INSERT INTO usage_month (${[...KEYS, ...SUMS].join(', ')})
    SELECT ${r}currency_id, SUBSTR(${r}date, 1, 7), l.item_id, ${r}invoice_id % ${SHARDS},
      ${sign}COUNT(*), ${sign}SUM(${microsOf(q, 'l.line_usage')}), ${sign}SUM(${centsOf(q, 'l.line_total')})
    FROM invoice_line l WHERE l.invoice_id = ${r}invoice_id AND l.is_usage = 1 AND ${counts(r)}${when}
    GROUP BY l.item_id ${isSqlite(q) ? `ON CONFLICT(${KEYS.join(', ')}) DO UPDATE SET` : 'ON DUPLICATE KEY UPDATE'} ${added}`;
}

function triggers(q: QueryRunner): RowTrigger[] {
  const lineChanged =
    ' AND (OLD.invoice_id <> NEW.invoice_id OR OLD.item_id <> NEW.item_id OR OLD.line_usage <> NEW.line_usage' +
    ' OR OLD.line_total <> NEW.line_total OR OLD.is_usage <> NEW.is_usage)';
  const invoiceChanged =
    ' AND (OLD.date <> NEW.date OR OLD.currency_id <> NEW.currency_id' +
    ' OR (OLD.void_datetime IS NULL) <> (NEW.void_datetime IS NULL)' +
    ' OR (OLD.deleted_datetime IS NULL) <> (NEW.deleted_datetime IS NULL))';
  return [
    {
      name: 'invoice_line_usage_insert',
      table: 'invoice_line',
      event: 'INSERT',
      statements: [lineStatement(q, 'NEW.', '', '')],
    },
    {
      name: 'invoice_line_usage_update',
      table: 'invoice_line',
      event: 'UPDATE',
      statements: [lineStatement(q, 'OLD.', '-', lineChanged), lineStatement(q, 'NEW.', '', lineChanged)],
    },
    {
      name: 'invoice_line_usage_delete',
      table: 'invoice_line',
      event: 'DELETE',
      statements: [lineStatement(q, 'OLD.', '-', '')],
    },
    {
      name: 'invoice_usage_update',
      table: 'invoice',
      event: 'UPDATE',
      statements: [invoiceStatement(q, 'OLD.', '-', invoiceChanged), invoiceStatement(q, 'NEW.', '', invoiceChanged)],
    },
    {
      name: 'invoice_usage_delete',
      table: 'invoice',
      event: 'DELETE',
      statements: [invoiceStatement(q, 'OLD.', '-', '')],
    },
  ];
}

/** The sums of the usage lines there are, before any trigger exists. */
async function backfill(q: QueryRunner): Promise<void> {
  await q.query(
    `INSERT INTO usage_month (${[...KEYS, ...SUMS].join(', ')})
     SELECT i.currency_id, SUBSTR(i.date, 1, 7), l.item_id, l.invoice_id % ${SHARDS},
       COUNT(*), SUM(${microsOf(q, 'l.line_usage')}), SUM(${centsOf(q, 'l.line_total')})
     FROM invoice_line l JOIN invoice i ON i.invoice_id = l.invoice_id
     WHERE l.is_usage = 1 AND ${counts('i.')}
     GROUP BY i.currency_id, SUBSTR(i.date, 1, 7), l.item_id, l.invoice_id % ${SHARDS}`,
  );
}
