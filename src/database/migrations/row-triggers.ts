import { QueryRunner } from 'typeorm';
import { isSqlite } from './sqlite-text-collation';

/**
 * Row triggers that keep a small rollup table in step with the rows it sums, in the
 * transaction of every write (whichever module writes): the SQL both databases share, with
 * the two places they differ (exact cents of an amount, and the adding upsert) named here.
 */
export interface RowTrigger {
  name: string;
  table: string;
  event: 'INSERT' | 'UPDATE' | 'DELETE';
  /** Statements run for each row written, in order; `NEW` and `OLD` are the row. */
  statements: string[];
}

export async function createRowTriggers(queryRunner: QueryRunner, triggers: RowTrigger[]): Promise<void> {
  for (const t of triggers) {
    await queryRunner.query(
      `CREATE TRIGGER ${t.name} AFTER ${t.event} ON ${t.table} FOR EACH ROW BEGIN ${t.statements.map((s) => `${s};`).join(' ')} END`,
    );
  }
}

export async function dropRowTriggers(queryRunner: QueryRunner, triggers: RowTrigger[]): Promise<void> {
  for (const t of triggers) await queryRunner.query(`DROP TRIGGER IF EXISTS ${t.name}`);
}

/**
 * The exact integer cents of a 2-decimal amount expression: MariaDB's DECIMAL times 100 is
 * exact; SQLite holds the amount as the double nearest it, which rounds back to its cents.
 */
export function centsOf(queryRunner: QueryRunner, amount: string): string {
  return isSqlite(queryRunner) ? `CAST(ROUND((${amount}) * 100) AS INTEGER)` : `ROUND((${amount}) * 100)`;
}

/**
 * One row of `table` keyed by `keys` (a unique index over their columns), each column of
 * `adds` increased by its expression, the row made (at zero) if missing; only `where` holds.
 */
export function addingUpsert(
  queryRunner: QueryRunner,
  table: string,
  keys: Record<string, string>,
  adds: Record<string, string>,
  where: string,
): string {
  const columns = [...Object.keys(keys), ...Object.keys(adds)];
  const values = [...Object.values(keys), ...Object.values(adds)];
  const insert = `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values.join(', ')}`;
  const added = Object.keys(adds);
  return isSqlite(queryRunner)
    ? `${insert} WHERE ${where} ON CONFLICT(${Object.keys(keys).join(', ')}) DO UPDATE SET ${added.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`
    : `${insert} FROM DUAL WHERE ${where} ON DUPLICATE KEY UPDATE ${added.map((c) => `${c} = ${c} + VALUES(${c})`).join(', ')}`;
}
