import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT, RATE } from 'src/core/money/decimal.transformer';
import { PriceModel } from 'src/billing/pricing/price-model';

/**
 * One price of an item in one currency. Repricing an item writes new tiersets and
 * retires the old ones (`is_current` false), so invoice lines keep pointing at the
 * price they were billed at.
 */
@Entity('tierset')
@Index(['item_id', 'is_current'])
export class Tierset {
  @PrimaryGeneratedColumn({ type: 'int' }) tierset_id: number;
  @Column({ type: 'int', nullable: true }) item_id: number | null;
  @Column({ type: 'boolean', default: true }) is_current: boolean;
  @Column({ type: 'int', default: 1 }) currency_id: number;
  @Column(AMOUNT) setup: Decimal;
  @Column(AMOUNT) base: Decimal;
  @Column(AMOUNT) minimum: Decimal;
  @Column(RATE) percent: Decimal;
  @Column({ type: 'varchar', length: 8 }) paycycle: string;
  @Column({ type: 'varchar', length: 8 }) pricemodel: PriceModel;
  @Column({ type: 'datetime' }) write_datetime: Date;
  @Column({ type: 'datetime' }) mod_datetime: Date;
}
