import Decimal from 'decimal.js';
import { PAYCYCLES } from 'src/billing/paycycles';
import { PRICE_MODELS, PriceModel, PriceTier, TIERED_MODELS } from 'src/billing/pricing/price-model';
import { tierProblem } from 'src/billing/pricing/tier-rules';
import { ApiError } from 'src/core/envelope/api-error';
import { ZERO } from 'src/core/money/decimal';
import { parseDecimalInput } from 'src/core/money/decimal-input';
import { asObject } from 'src/core/validation/validate-body';

/** A tierset as a client sends it, checked and read into decimals. */
export interface TiersetInput {
  currency_id: number;
  setup: Decimal;
  base: Decimal;
  minimum: Decimal;
  percent: Decimal;
  paycycle: string;
  pricemodel: PriceModel;
  tiers: PriceTier[];
}

const TIERSET_FIELDS = new Set([
  'currency_id',
  'setup',
  'base',
  'minimum',
  'percent',
  'paycycle',
  'pricemodel',
  'tiers',
]);
const TIER_FIELDS = new Set(['unit_from', 'unit_to', 'amount']);

/** Reads one tierset object; every problem is a 400 naming the field (`tiersets[0].base`). */
export function parseTierset(sent: unknown, path: string): TiersetInput {
  const raw = asObject(sent);
  if (!raw) throw ApiError.badRequest(`Invalid field "${path}": must be an object.`);
  const unknown = Object.keys(raw).filter((key) => !TIERSET_FIELDS.has(key));
  if (unknown.length) throw ApiError.badRequest(`Invalid field "${path}.${unknown[0]}": not a known tierset field.`);

  // setup, base and minimum are AMOUNT columns (2 decimals); percent is a RATE (6).
  const money = (key: string, decimals: number, max?: number): Decimal =>
    raw[key] === undefined || raw[key] === null
      ? ZERO
      : parseDecimalInput(raw[key], `${path}.${key}`, { min: 0, max, decimals });
  const pricemodel = raw.pricemodel ?? 'fla';
  if (typeof pricemodel !== 'string' || !(PRICE_MODELS as readonly string[]).includes(pricemodel)) {
    throw ApiError.badRequest(`Invalid field "${path}.pricemodel": must be one of: ${PRICE_MODELS.join(', ')}.`);
  }
  const paycycle = raw.paycycle ?? 'mon';
  if (typeof paycycle !== 'string' || !PAYCYCLES.includes(paycycle)) {
    throw ApiError.badRequest(`Invalid field "${path}.paycycle": must be one of: ${PAYCYCLES.join(', ')}.`);
  }
  const currency = raw.currency_id ?? 1;
  if (!Number.isInteger(Number(currency)) || Number(currency) < 1) {
    throw ApiError.badRequest(`Invalid field "${path}.currency_id": must be an integer.`);
  }
  const tiers = parseTiers(raw.tiers, `${path}.tiers`);
  if (TIERED_MODELS.includes(pricemodel as PriceModel) && tiers.length === 0) {
    throw ApiError.badRequest(
      `Invalid field "${path}.tiers": the "${pricemodel}" price model needs at least one tier.`,
    );
  }
  return {
    currency_id: Number(currency),
    setup: money('setup', 2),
    base: money('base', 2),
    minimum: money('minimum', 2),
    // A discount of more than 100 % would make the invoice negative.
    percent: money('percent', 6, 100),
    paycycle,
    pricemodel: pricemodel as PriceModel,
    tiers,
  };
}

function parseTiers(raw: unknown, path: string): PriceTier[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw ApiError.badRequest(`Invalid field "${path}": must be an array.`);
  const tiers = raw.map((sent: unknown, i): PriceTier => {
    const at = `${path}[${i}]`;
    const tier = asObject(sent);
    if (!tier) throw ApiError.badRequest(`Invalid field "${at}": must be an object.`);
    const unknown = Object.keys(tier).filter((key) => !TIER_FIELDS.has(key));
    if (unknown.length) throw ApiError.badRequest(`Invalid field "${at}.${unknown[0]}": not a known tier field.`);
    return {
      unit_from: parseDecimalInput(tier.unit_from, `${at}.unit_from`, { min: 0 }),
      unit_to:
        tier.unit_to === null || tier.unit_to === undefined || tier.unit_to === ''
          ? null
          : parseDecimalInput(tier.unit_to, `${at}.unit_to`, { min: 0 }),
      amount: parseDecimalInput(tier.amount, `${at}.amount`),
    };
  });
  const problem = tierProblem(tiers);
  if (problem) throw ApiError.badRequest(`Invalid field "${path}": ${problem}.`);
  return tiers;
}
