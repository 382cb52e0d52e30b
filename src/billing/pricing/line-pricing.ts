import Decimal from 'decimal.js';
import { roundCents, sumMoney, ZERO } from 'src/core/money/decimal';
import { PriceSheet, PriceTier } from './price-model';

/**
 * The ONE place a line's amount is computed (DESIGN §5, §6). Pure functions over
 * decimal.js; each result is rounded once, to cents, half up.
 */

/** A priced line: its amount (rounded) and the unit rate shown as `line_rate`. */
export interface LinePrice {
  amount: Decimal;
  rate: Decimal;
}

/** The tier that holds `quantity`: tier i covers (previous unit_to, unit_to]; 0 falls in the first. */
export function tierHolding(tiers: PriceTier[], quantity: Decimal): PriceTier | undefined {
  return tiers.find((tier) => tier.unit_to === null || quantity.lte(tier.unit_to)) ?? tiers[tiers.length - 1];
}

/** Graduated: the units falling in each tier times that tier's amount. */
function graduated(tiers: PriceTier[], quantity: Decimal): Decimal {
  return sumMoney(
    tiers.map((tier) => {
      const below = tier.unit_from.minus(1);
      const top = tier.unit_to === null ? quantity : Decimal.min(quantity, tier.unit_to);
      const units = Decimal.max(ZERO, top.minus(below));
      return units.times(tier.amount);
    }),
  );
}

/**
 * The amount of a regular (non-discount) line of `quantity` units on this price sheet,
 * before tax: the model's amount, never below `minimum`.
 */
export function priceLine(sheet: PriceSheet, quantity: Decimal): LinePrice {
  let exact: Decimal;
  let rate: Decimal;
  switch (sheet.pricemodel) {
    case 'fla':
      exact = sheet.base.times(quantity);
      rate = sheet.base;
      break;
    case 'uni':
    case 'vol': {
      const amount = tierHolding(sheet.tiers, quantity)?.amount ?? ZERO;
      exact = sheet.base.plus(quantity.times(amount));
      rate = amount;
      break;
    }
    case 'tie':
      exact = sheet.base.plus(graduated(sheet.tiers, quantity));
      rate = quantity.isZero() ? ZERO : exact.div(quantity).toDecimalPlaces(6, Decimal.ROUND_HALF_UP);
      break;
    case 'pas':
      exact = quantity;
      rate = new Decimal(1);
      break;
  }
  return { amount: Decimal.max(roundCents(exact), sheet.minimum), rate };
}

/** A line priced at an explicit `line_rate`: rate × quantity. */
export function priceAtRate(rate: Decimal, quantity: Decimal): LinePrice {
  return { amount: roundCents(rate.times(quantity)), rate };
}

/**
 * A discount line: minus `percent` of the invoice's non-discount lines when the sheet
 * has a percent, else minus its flat amount (base × quantity).
 */
export function priceDiscount(sheet: PriceSheet, quantity: Decimal, nonDiscountSubtotal: Decimal): LinePrice {
  if (!sheet.percent.isZero()) {
    return { amount: roundCents(nonDiscountSubtotal.times(sheet.percent).div(100)).negated(), rate: sheet.percent };
  }
  return { amount: roundCents(sheet.base.times(quantity)).negated(), rate: sheet.base };
}

/** A line's tax: `ratePercent` % of its taxable amount, rounded per line. */
export function lineTax(taxable: Decimal, ratePercent: Decimal): Decimal {
  return roundCents(taxable.times(ratePercent).div(100));
}

/** The one-time setup line of a tierset (its own `is_setup` line). */
export function priceSetup(setup: Decimal): LinePrice {
  return { amount: roundCents(setup), rate: setup };
}

/** A prorated line (DESIGN §6 "Proration"): the computed amount × the fraction, in cents. */
export function priceProrated(price: LinePrice, fraction: Decimal): LinePrice {
  return { amount: roundCents(price.amount.times(fraction)), rate: price.rate };
}
