import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { Money, ZERO } from 'src/core/money/decimal';
import { runsInProcess } from 'src/database/raw-query';

/**
 * An exact SQL sum of 2-decimal amounts (the DECIMAL(18, 2) `AMOUNT` columns), so a query
 * can answer with one sum per group instead of every amount: the one place that knows
 * how each database sums money.
 */
export interface AmountSum {
  /** Which way of summing it is (one per database kind). */
  readonly name: 'decimal' | 'cents';
  /** The aggregate (for a SELECT with GROUP BY) summing `amount`, a column or expression of 2-decimal amounts. */
  readonly sql: (amount: string) => string;
  /** An exact integer: the cents of `amount` (for sums and window sums in whole cents). */
  readonly cents: (amount: string) => string;
  /** The sum as the driver returns it, as a decimal; null (no amounts) is zero. */
  readonly read: (value: string | number | null) => Decimal;
}

/**
 * MySQL and MariaDB: the SUM of a DECIMAL is an exact DECIMAL, which mysql2 returns as a
 * string (the data source sets `bigNumberStrings`).
 */
const DECIMAL_SUM: AmountSum = {
  name: 'decimal',
  sql: (amount) => `SUM(${amount})`,
  cents: (amount) => `ROUND((${amount}) * 100)`,
  read: (value) => (value === null ? ZERO : new Money(value)),
};

/**
 * SQLite: DECIMAL columns have NUMERIC affinity and hold REALs, whose SUM is a float sum.
 * Each stored amount is the double nearest a 2-decimal value, so it rounds back to its
 * exact cents (for amounts below 2^45, about 3.5 × 10^13: beyond, a double no longer
 * holds cents apart), and a sum of integers is exact (SQLite raises "integer overflow"
 * past 2^63 rather than answer wrong). The sum leaves as text, so no JS number carries it,
 * and becomes a decimal again here.
 */
const CENTS_SUM: AmountSum = {
  name: 'cents',
  sql: (amount) => `CAST(SUM(CAST(ROUND((${amount}) * 100) AS INTEGER)) AS TEXT)`,
  cents: (amount) => `CAST(ROUND((${amount}) * 100) AS INTEGER)`,
  read: (value) => (value === null ? ZERO : new Money(value).div(100)),
};

/** The exact sum of amounts on `manager`'s database (the one in-process database is SQLite). */
export function amountSum(manager: EntityManager): AmountSum {
  return runsInProcess(manager) ? CENTS_SUM : DECIMAL_SUM;
}
