import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** What an item points at to be taxable: a named group applying one tax. */
@Entity('tax_group')
export class TaxGroup {
  @PrimaryGeneratedColumn({ type: 'int' }) tax_group_id: number;
  @Column({ type: 'varchar', length: 128 }) tax_group_name: string;
  @Column({ type: 'int' }) tax_id: number;
}
