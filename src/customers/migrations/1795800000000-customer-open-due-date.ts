import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { tableIndex } from 'src/database/migrations/schema-builders';
import { foldTextCaseOnSqlite } from 'src/database/migrations/sqlite-text-collation';

/**
 * Issue 42: the earliest due date of a customer's open invoices, stored and kept by the
 * invoice writers in their transactions, so a read derives `active-overdue` by comparing it
 * with today instead of searching the invoices per row, and a status filter has an index.
 * Backfilled from the invoices (the open statuses frozen here: a migration must not change
 * when the rule does).
 */
export class CustomerOpenDueDate1795800000000 implements MigrationInterface {
  name = 'CustomerOpenDueDate1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addOpenDueDate(queryRunner, 'customer', 'customer_id');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropOpenDueDate(queryRunner, 'customer');
  }
}

const OPEN_DUE_INDEX = { columns: ['open_due_date'] };

/** Adds `open_due_date` (indexed) to `table`, filled from the invoices whose `owner` column names its rows. */
export async function addOpenDueDate(queryRunner: QueryRunner, table: string, owner: string): Promise<void> {
  await queryRunner.addColumn(table, new TableColumn({ name: 'open_due_date', type: 'date', isNullable: true }));
  // SQLite rebuilds the table to add a column, dropping its text columns' NOCASE.
  await foldTextCaseOnSqlite(queryRunner);
  await queryRunner.createIndex(table, tableIndex(table, OPEN_DUE_INDEX));
  await queryRunner.query(
    `UPDATE ${table} SET open_due_date = (SELECT MIN(i.due_date) FROM invoice i
      WHERE i.${owner} = ${table}.${owner}
      AND i.invoice_status_str IN ('open-unpaid', 'open-overdue', 'open-collections')
      AND i.void_datetime IS NULL AND i.deleted_datetime IS NULL)`,
  );
}

export async function dropOpenDueDate(queryRunner: QueryRunner, table: string): Promise<void> {
  await queryRunner.dropIndex(table, tableIndex(table, OPEN_DUE_INDEX).name!);
  await queryRunner.dropColumn(table, 'open_due_date');
  await foldTextCaseOnSqlite(queryRunner);
}
