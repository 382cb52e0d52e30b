import Decimal from 'decimal.js';

/** Price model codes of a tierset (DESIGN §6 "Items and pricing"). */
export const PRICE_MODELS = ['fla', 'uni', 'vol', 'tie', 'pas'] as const;
export type PriceModel = (typeof PRICE_MODELS)[number];

/** Models whose amount comes from the tiers. */
export const TIERED_MODELS: readonly PriceModel[] = ['uni', 'vol', 'tie'];

export const PRICE_MODEL_DESC: Readonly<Record<PriceModel, string>> = {
  fla: 'Flat Pricing (e.g. $X dollars per month)',
  uni: 'Unit Pricing (e.g. $X per unit per month)',
  vol: 'Volume Pricing',
  tie: 'Tiered Pricing',
  pas: 'Pass-through Pricing',
};

/** One tier: units `unit_from..unit_to` (null = no upper bound) at `amount` each. */
export interface PriceTier {
  unit_from: Decimal;
  unit_to: Decimal | null;
  amount: Decimal;
}

/** What pricing needs of a tierset. */
export interface PriceSheet {
  pricemodel: PriceModel;
  base: Decimal;
  minimum: Decimal;
  percent: Decimal;
  tiers: PriceTier[];
}
