import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { RATE } from 'src/core/money/decimal.transformer';
import type Decimal from 'decimal.js';

/** Read-only reference tables, seeded by migration (DESIGN §6 "Reference data"). */
@Entity('currency')
export class Currency {
  @PrimaryColumn({ type: 'int' }) currency_id: number;
  @Column({ type: 'varchar', length: 3 }) currency_iso4217: string;
  @Column({ type: 'varchar', length: 8 }) currency_symbol: string;
  @Column({ type: 'varchar', length: 64 }) currency_name: string;
}

@Entity('terms')
export class Terms {
  @PrimaryColumn({ type: 'int' }) terms_id: number;
  @Column({ type: 'varchar', length: 64 }) terms_name: string;
  @Column({ type: 'int' }) terms_days: number;
}

@Entity('country')
export class Country {
  @PrimaryColumn({ type: 'int' }) country_id: number;
  @Column({ type: 'varchar', length: 2 }) iso2: string;
  @Column({ type: 'varchar', length: 64 }) name: string;
}

@Entity('brand')
export class Brand {
  @PrimaryColumn({ type: 'int' }) brand_id: number;
  @Column({ type: 'varchar', length: 128 }) brand_name: string;
}

@Entity('class')
export class AccountClass {
  @PrimaryColumn({ type: 'int' }) class_id: number;
  @Column({ type: 'varchar', length: 128 }) class_name: string;
}

@Entity('admin')
export class Admin {
  @PrimaryColumn({ type: 'int' }) admin_id: number;
  @Column({ type: 'varchar', length: 128 }) admin_name: string;
  @Column({ type: 'varchar', length: 255 }) admin_email: string;
}

@Entity('language')
export class Language {
  @PrimaryColumn({ type: 'int' }) language_id: number;
  @Column({ type: 'varchar', length: 64 }) language_name: string;
  @Column({ type: 'varchar', length: 8 }) language_iso639: string;
}

@Entity('user_type')
export class UserType {
  @PrimaryColumn({ type: 'int' }) user_type_id: number;
  @Column({ type: 'varchar', length: 64 }) user_type_name: string;
}

/** Taxes are account data (created through `/tax` once items are taxable); the table starts empty. */
@Entity('tax')
export class Tax {
  @PrimaryGeneratedColumn({ type: 'int' }) tax_id: number;
  @Column({ type: 'varchar', length: 128 }) tax_name: string;
  @Column(RATE) tax_rate: Decimal;
}
