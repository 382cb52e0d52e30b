import Decimal from 'decimal.js';
import { ValueTransformer } from 'typeorm';
import { Money } from './decimal';

/**
 * Maps DECIMAL columns to decimal.js values. Writes a fixed-point string so neither
 * driver ever sees a JS float; reads accept the driver's string (MySQL) or number (SQLite).
 */
export class DecimalTransformer implements ValueTransformer {
  constructor(private readonly scale: number) {}

  to(value: Decimal | string | number | null | undefined): string | null | undefined {
    if (value === null || value === undefined) return value;
    return new Money(value).toFixed(this.scale, Decimal.ROUND_HALF_UP);
  }

  from(value: string | number | null): Decimal | null {
    return value === null || value === undefined ? null : new Money(value);
  }
}

export const AMOUNT = { type: 'decimal', precision: 18, scale: 2, transformer: new DecimalTransformer(2) } as const;
/**
 * The largest magnitudes accepted anywhere (inputs, line amounts, invoice totals). At most
 * 15 significant digits, so both columns hold them exactly (SQLite keeps such a DECIMAL
 * as a double, which is exact up to 15 digits) and a JSON number renders them exactly;
 * the DECIMAL(18,2) column itself could go to 16 integer digits, JSON could not.
 */
export const AMOUNT_LIMIT = new Money('999999999999.99');
/** Rates and quantities (6 decimals): 15 significant digits as well. */
export const RATE_LIMIT = new Money('999999999.999999');

export const RATE = { type: 'decimal', precision: 18, scale: 6, transformer: new DecimalTransformer(6) } as const;
