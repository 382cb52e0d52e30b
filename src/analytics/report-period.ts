import { DateTime } from 'luxon';
import { ApiError } from 'src/core/envelope/api-error';
import { Currency } from 'src/reference/entities/reference.entities';

/** The most months one report covers. */
export const MAX_MONTHS = 120;

/** What every report is asked for: its months (inclusive), one currency or all. */
export interface ReportPeriod {
  months: string[];
  from: string;
  to: string;
  /** Null: one row set per currency. */
  currency: Currency | null;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** `YYYY-MM` plus `n` months. */
export function addMonths(month: string, n: number): string {
  const [y, mo] = month.split('-').map(Number);
  const index = y * 12 + (mo - 1) + n;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

function monthParam(query: Record<string, unknown>, field: string, fallback: string): string {
  const value = query[field];
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !MONTH.test(value) || value < '1900-01' || value > '2999-12')
    throw ApiError.badRequest(`Field "${field}" must be a month as YYYY-MM.`);
  return value;
}

/**
 * `from` and `to` (months, inclusive; default the 12 months ending with today's) and
 * `currency` (an ISO code this account knows) of a report request; 400 naming the field.
 */
export function reportPeriod(
  query: Record<string, unknown>,
  today: string,
  currencies: readonly Currency[],
): ReportPeriod {
  const thisMonth = today.slice(0, 7);
  const to = monthParam(query, 'to', thisMonth);
  const from = monthParam(query, 'from', addMonths(to, -11));
  if (from > to) throw ApiError.badRequest('Field "from" must not be after "to".');
  const months: string[] = [];
  for (let m = from; m <= to; m = addMonths(m, 1)) {
    months.push(m);
    if (months.length > MAX_MONTHS)
      throw ApiError.badRequest(`Field "from": a report covers at most ${MAX_MONTHS} months.`);
  }
  return { months, from, to, currency: currencyParam(query, currencies) };
}

function currencyParam(query: Record<string, unknown>, currencies: readonly Currency[]): Currency | null {
  const code = query.currency;
  if (code === undefined || code === '') return null;
  const found =
    typeof code === 'string' ? currencies.find((c) => c.currency_iso4217.toUpperCase() === code.toUpperCase()) : null;
  if (!found) throw ApiError.badRequest('Field "currency" must be the ISO code of a currency of this account.');
  return found;
}

/** `as_of` (a date, `YYYY-MM-DD`; default today). */
export function asOfParam(query: Record<string, unknown>, today: string): string {
  const value = query.as_of;
  if (value === undefined || value === '') return today;
  if (typeof value !== 'string' || !DateTime.fromFormat(value, 'yyyy-MM-dd').isValid || value < '1900-01-01')
    throw ApiError.badRequest('Field "as_of" must be a date as YYYY-MM-DD.');
  return value;
}
