import Decimal from 'decimal.js';
import { PriceTier } from './price-model';

/**
 * Why a tier list is unusable, or null when it is fine: tiers start at unit 1, each
 * starts one unit after the previous ends, only the last may be open-ended (unit_to
 * null), and no tier ends before it starts.
 */
export function tierProblem(tiers: PriceTier[]): string | null {
  let expectedFrom = new Decimal(1);
  for (let i = 0; i < tiers.length; i++) {
    const tier = tiers[i];
    if (!tier.unit_from.eq(expectedFrom)) {
      return `tier ${i + 1} must start at unit ${expectedFrom.toString()} (tiers are contiguous from 1)`;
    }
    if (tier.amount.isNegative()) return `tier ${i + 1} has a negative amount`;
    if (tier.unit_to === null) {
      if (i !== tiers.length - 1) return `only the last tier may have no unit_to`;
      continue;
    }
    if (tier.unit_to.lt(tier.unit_from)) return `tier ${i + 1} ends before it starts`;
    expectedFrom = tier.unit_to.plus(1);
  }
  return null;
}
