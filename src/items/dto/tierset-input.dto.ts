import { PAYCYCLES } from 'src/billing/paycycles';
import { PRICE_MODELS } from 'src/billing/pricing/price-model';
import { Doc, DocDecimal, DocRequired } from 'src/core/validation/doc-fields';

/** One tier of a tiered, volume or package price (read by `parseTierset`). */
export class TierInputDto {
  @DocRequired({ type: 'integer', minimum: 1, example: 1 }) unit_from!: number;
  @Doc({ type: 'integer', nullable: true, example: 10, description: 'null: open (the last tier only)' })
  unit_to?: number | null;
  @DocRequired({ oneOf: [{ type: 'number' }, { type: 'string' }], example: 5, description: 'the price per unit' })
  amount!: number | string;
}

/** A price of an item in one currency (`tiersets[]`, `pricemodel`, a quote line's `tierset`). */
export class TiersetInputDto {
  @Doc({ type: 'integer', minimum: 1, default: 1 }) currency_id?: number;
  @Doc({
    type: 'string',
    enum: [...PRICE_MODELS],
    default: 'fla',
    description: 'fla flat, uni per unit, vol volume, tie tiered, pas package',
  })
  pricemodel?: string;
  @Doc({ type: 'string', enum: [...PAYCYCLES], default: 'mon' }) paycycle?: string;
  @DocDecimal('the price of a cycle (flat) or of a unit', 49) base?: number | string;
  @DocDecimal('a one-time setup fee') setup?: number | string;
  @DocDecimal('the least a cycle costs') minimum?: number | string;
  @DocDecimal('a percent discount') percent?: number | string;
  @Doc({ type: () => [TierInputDto], description: 'required for vol, tie and pas' }) tiers?: TierInputDto[];
}
