import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DeletableRecord, customColumns } from 'src/database/base-record';

export const ITEM_TYPES = ['service', 'product', 'discount'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** Something the business sells (DESIGN §6 "Items and pricing"); its prices are tiersets. */
@Entity('item')
@customColumns(3, 3)
export class Item extends DeletableRecord {
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) item_id: number;
  @Index() @Column({ type: 'varchar', length: 16 }) item_type: ItemType;
  @Index() @Column({ type: 'varchar', length: 255 }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) units: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) units_plural: string | null;
  @Index() @Column({ type: 'boolean', default: true }) enabled: boolean;
  @Index() @Column({ type: 'varchar', length: 255, nullable: true }) accounting_sku: string | null;
  @Column({ type: 'int', nullable: true }) tax_group_id: number | null;
  @Column({ type: 'int', nullable: true }) expire_recurs: number | null;
  @Column({ type: 'int', nullable: true }) trial_recurs: number | null;
  @Column({ type: 'int', default: 0 }) trial_days: number;
  @Column({ type: 'boolean', default: false }) is_usage: boolean;
}
