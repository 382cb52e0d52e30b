import { MigrationInterface, QueryRunner } from 'typeorm';
import { centsOf } from 'src/database/migrations/row-triggers';
import {
  createTables,
  dropTables,
  generatedId,
  int,
  TableSpec,
  varchar,
} from 'src/database/migrations/schema-builders';

/**
 * The `mrr` and `churn` reports' per-month rollup (entities/mrr-month.entity.ts), filled
 * from the MRR history already recorded; MrrHistory keeps it from then on. With 100,000
 * subscriptions over three years the reports windowed over 214,000 customer-month rows per
 * request; they now read a row per currency, month and shard.
 */
export class MrrRollup1795810000000 implements MigrationInterface {
  name = 'MrrRollup1795810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
    await backfillMrrMonths(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const bigint = (name: string) => ({ name, type: 'bigint', default: 0 });
const COLUMNS = [
  'new_cents',
  'new_count',
  'expansion_cents',
  'contraction_cents',
  'churned_cents',
  'churned_count',
  'reactivation_cents',
  'reactivation_count',
];

const TABLES: TableSpec[] = [
  {
    name: 'mrr_month',
    columns: [
      generatedId('mrr_month_id'),
      int('currency_id'),
      varchar('month', 7),
      int('shard'),
      ...COLUMNS.map(bigint),
    ],
    indices: [{ columns: ['currency_id', 'month', 'shard'], unique: true }],
  },
];

/**
 * Frozen here as of this migration (the live rule is analytics/mrr-rollup.ts): a customer's
 * month from start `s` to end `e` (cents) is new or reactivation (from zero or below to
 * above, having been above before), churned (from above to zero or below), else expansion
 * or contraction; 16 shards by customer id.
 */
const KINDS: Record<string, string> = {
  new: 's <= 0 AND e > 0 AND paid_before = 0',
  reactivation: 's <= 0 AND e > 0 AND paid_before = 1',
  churned: 's > 0 AND e <= 0',
  expansion: 'e > s AND (s > 0 OR e <= 0)',
  contraction: 'e < s AND (s <= 0 OR e > 0)',
};

/** Exported for its test: the rollup of the `mrr_change` rows there are (the table empty before). */
export async function backfillMrrMonths(q: QueryRunner): Promise<void> {
  const perCustomer = `SELECT currency_id, customer_id, month, SUM(${centsOf(q, 'delta')}) AS d FROM mrr_change
     GROUP BY currency_id, customer_id, month`;
  const ends = `SELECT currency_id, customer_id, month, d,
       SUM(d) OVER (PARTITION BY currency_id, customer_id ORDER BY month ROWS UNBOUNDED PRECEDING) AS e
     FROM (${perCustomer}) cm`;
  const classified = `SELECT currency_id, customer_id, month, e - d AS s, e,
       COALESCE(MAX(CASE WHEN e > 0 THEN 1 ELSE 0 END) OVER (PARTITION BY currency_id, customer_id ORDER BY month
         ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS paid_before
     FROM (${ends}) r`;
  const amount = (kind: string) => `SUM(CASE WHEN ${KINDS[kind]} THEN ABS(e - s) ELSE 0 END)`;
  const count = (kind: string) => `SUM(CASE WHEN ${KINDS[kind]} THEN 1 ELSE 0 END)`;
  await q.query(
    `INSERT INTO mrr_month (currency_id, month, shard, ${COLUMNS.join(', ')})
     SELECT currency_id, month, customer_id % 16, ${[
       amount('new'),
       count('new'),
       amount('expansion'),
       amount('contraction'),
       amount('churned'),
       count('churned'),
       amount('reactivation'),
       count('reactivation'),
     ].join(', ')}
     FROM (${classified}) c GROUP BY currency_id, month, customer_id % 16`,
  );
}
