import { MigrationInterface, QueryRunner } from 'typeorm';
import { addOpenDueDate, dropOpenDueDate } from 'src/customers/migrations/1795800000000-customer-open-due-date';

/**
 * Issue 42: the earliest due date of a subscription's open invoices, kept by the invoice
 * writers, so `active-overdue` is a comparison with today in lists and filters.
 */
export class PackageOpenDueDate1795800000001 implements MigrationInterface {
  name = 'PackageOpenDueDate1795800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addOpenDueDate(queryRunner, 'package', 'package_id');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropOpenDueDate(queryRunner, 'package');
  }
}
