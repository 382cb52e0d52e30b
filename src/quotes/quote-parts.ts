import Decimal from 'decimal.js';

type Wire = Record<string, unknown>;

/** Wire numbers are already rounded to cents; Decimal keeps them exact. */
function amountOf(value: unknown): Decimal {
  return new Decimal(typeof value === 'number' || typeof value === 'string' ? value || 0 : 0);
}

/**
 * A recurring quote (as the API presents it, with `line_items`) split as its customer pays it:
 * `onceOnly`, its lines priced at a one-time (`one`) tierset with their taxes, billed on
 * acceptance only; `recurring`, what each later cycle bills (the cycle's total without them).
 * `upfront` (what acceptance bills) already holds both and the setup fees.
 */
export function quoteParts(quote: Wire): { onceOnly: Decimal; recurring: Decimal } {
  const lines = (quote.line_items as Wire[] | undefined) ?? [];
  const onceOnly = lines
    .filter((line) => (line.tierset as Wire | null | undefined)?.paycycle === 'one')
    .reduce((sum, line) => sum.plus(amountOf(line.line_total)), new Decimal(0));
  return { onceOnly, recurring: amountOf(quote.total).minus(onceOnly) };
}
