import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  addingUpsert,
  centsOf,
  createRowTriggers,
  dropRowTriggers,
  RowTrigger,
} from 'src/database/migrations/row-triggers';
import {
  createTables,
  dropTables,
  generatedId,
  int,
  TableSpec,
  varchar,
} from 'src/database/migrations/schema-builders';

/**
 * The `revenue` report's per-month rollup (entities/revenue-month.entity.ts): the table,
 * the sums of the rows that exist already, and the row triggers that keep it in step from
 * then on. With 100,000 subscriptions and three years of history the report read about
 * 1.7 million invoices and 1.4 million transactions; it now reads a few hundred rows.
 * Frozen here as of this migration: what counts (transactions/transaction-status.ts
 * COUNTING_STATUSES; `pay` collected, `ref` refunded, `cre` credit issued).
 */
export class RevenueRollup1795793400000 implements MigrationInterface {
  name = 'RevenueRollup1795793400000';

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

const TABLES: TableSpec[] = [
  {
    name: 'revenue_month',
    columns: [
      generatedId('revenue_month_id'),
      int('currency_id'),
      varchar('month', 7),
      int('shard'),
      bigint('invoiced_cents'),
      bigint('collected_cents'),
      bigint('credits_cents'),
      bigint('refunds_cents'),
    ],
    indices: [{ columns: ['currency_id', 'month', 'shard'], unique: true }],
  },
];

/** Whose columns: the trigger's new or old row, or the table's own (the backfill). */
type Row = 'NEW.' | 'OLD.' | '';

/** An invoice counts (its total, by its date) unless deleted. */
function invoiceSums(q: QueryRunner, r: Row): Sums {
  return {
    keys: { currency_id: `${r}currency_id`, month: `SUBSTR(${r}date, 1, 7)`, shard: `${r}invoice_id % ${SHARDS}` },
    adds: { invoiced_cents: centsOf(q, `${r}total`) },
    counts: `${r}deleted_datetime IS NULL`,
  };
}

/** A payment, refund (a negative amount) or credit memo counts while successful or pending. */
function transactionSums(q: QueryRunner, r: Row): Sums {
  const cents = centsOf(q, `${r}amount`);
  const absolute = centsOf(q, `ABS(${r}amount)`);
  return {
    keys: {
      currency_id: `${r}currency_id`,
      month: `SUBSTR(${r}transaction_date, 1, 7)`,
      shard: `${r}transaction_id % ${SHARDS}`,
    },
    adds: {
      collected_cents: `CASE ${r}transaction_type WHEN 'pay' THEN ${cents} WHEN 'ref' THEN -${absolute} ELSE 0 END`,
      refunds_cents: `CASE ${r}transaction_type WHEN 'ref' THEN ${absolute} ELSE 0 END`,
      credits_cents: `CASE ${r}transaction_type WHEN 'cre' THEN ${cents} ELSE 0 END`,
    },
    counts: `${r}status_str IN ('ok-successful', 'ok-pending') AND ${r}transaction_type IN ('pay', 'ref', 'cre')`,
  };
}

interface Sums {
  keys: Record<string, string>;
  adds: Record<string, string>;
  counts: string;
}

function triggersOf(
  q: QueryRunner,
  table: string,
  sums: (q: QueryRunner, r: Row) => Sums,
  changed: string,
): RowTrigger[] {
  const add = (r: 'NEW.' | 'OLD.', sign: '' | '-', when: string) => {
    const s = sums(q, r);
    const adds = Object.fromEntries(Object.entries(s.adds).map(([c, e]) => [c, `${sign}(${e})`]));
    return addingUpsert(q, 'revenue_month', s.keys, adds, `${s.counts}${when}`);
  };
  return [
    { name: `${table}_revenue_insert`, table, event: 'INSERT', statements: [add('NEW.', '', '')] },
    {
      name: `${table}_revenue_update`,
      table,
      event: 'UPDATE',
      statements: [add('OLD.', '-', ` AND (${changed})`), add('NEW.', '', ` AND (${changed})`)],
    },
    { name: `${table}_revenue_delete`, table, event: 'DELETE', statements: [add('OLD.', '-', '')] },
  ];
}

function triggers(q: QueryRunner): RowTrigger[] {
  return [
    ...triggersOf(
      q,
      'invoice',
      invoiceSums,
      'OLD.total <> NEW.total OR OLD.date <> NEW.date OR OLD.currency_id <> NEW.currency_id' +
        ' OR (OLD.deleted_datetime IS NULL) <> (NEW.deleted_datetime IS NULL)',
    ),
    ...triggersOf(
      q,
      'payment_transaction',
      transactionSums,
      'OLD.status_str <> NEW.status_str OR OLD.amount <> NEW.amount OR OLD.transaction_date <> NEW.transaction_date' +
        ' OR OLD.currency_id <> NEW.currency_id OR OLD.transaction_type <> NEW.transaction_type',
    ),
  ];
}

/** The rollup of the rows already there, summed per (currency, month, shard) before any trigger exists. */
async function backfill(q: QueryRunner): Promise<void> {
  const rows = new Map<string, Record<string, bigint>>();
  const gather = async (table: string, s: Sums) => {
    const keys = Object.values(s.keys);
    const sums = Object.values(s.adds).map((e) => `SUM(${e})`);
    const found = (await q.query(
      `SELECT ${[...keys, ...sums].join(', ')} FROM ${table} WHERE ${s.counts} GROUP BY ${keys.join(', ')}`,
    )) as Array<Record<string, unknown>>;
    for (const row of found) {
      const values = Object.values(row);
      const key = values.slice(0, 3).map(String).join('|');
      const total = rows.get(key) ?? {};
      Object.keys(s.adds).forEach((column, i) => {
        total[column] = (total[column] ?? 0n) + BigInt(String(values[3 + i]).replace(/\.0*$/, ''));
      });
      rows.set(key, total);
    }
  };
  await gather('invoice', invoiceSums(q, ''));
  await gather('payment_transaction', transactionSums(q, ''));
  const columns = ['invoiced_cents', 'collected_cents', 'credits_cents', 'refunds_cents'];
  const all = [...rows.entries()];
  for (let i = 0; i < all.length; i += 500) {
    const page = all.slice(i, i + 500);
    await q.query(
      `INSERT INTO revenue_month (currency_id, month, shard, ${columns.join(', ')}) VALUES ${page
        .map(() => `(?, ?, ?, ${columns.map(() => '?').join(', ')})`)
        .join(', ')}`,
      page.flatMap(([key, sums]) => {
        const [currency, month, shard] = key.split('|');
        return [Number(currency), month, Number(shard), ...columns.map((c) => String(sums[c] ?? 0n))];
      }),
    );
  }
}
