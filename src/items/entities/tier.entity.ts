import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { RATE } from 'src/core/money/decimal.transformer';

/** One tier of a tierset: units `unit_from..unit_to` (null = open-ended) at `amount` each. */
@Entity('tier')
export class Tier {
  @PrimaryGeneratedColumn({ type: 'int' }) tier_id: number;
  @Index() @Column({ type: 'int' }) tierset_id: number;
  @Column(RATE) unit_from: Decimal;
  @Column({ ...RATE, nullable: true }) unit_to: Decimal | null;
  @Column(RATE) amount: Decimal;
}
