import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { decimal } from './schema-builders';

/** A subscription's monthly recurring revenue, kept by its writers so customer figures can sum it. */
export class PackageMrr1764000300002 implements MigrationInterface {
  name = 'PackageMrr1764000300002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('package', new TableColumn({ ...decimal('mrr', 18, 2), default: '0' }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('package', 'mrr');
  }
}
