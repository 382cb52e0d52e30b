import { Injectable } from '@nestjs/common';
import { PRICE_MODEL_DESC } from 'src/billing/pricing/price-model';
import { moneyToJson } from 'src/core/money/decimal';
import { formatAmount } from 'src/core/money/money-format';
import { WireFormat } from 'src/core/wire/wire-format';
import { ReferenceService } from 'src/reference/reference.service';
import { LoadedTierset } from './tierset-loader';
import { WireTierset } from './wire-item';

/** The wire shape of a tierset (field order as recorded) with its tiers. */
@Injectable()
export class TiersetPresenter {
  constructor(
    private readonly wire: WireFormat,
    private readonly reference: ReferenceService,
  ) {}

  present({ tierset: t, tiers }: LoadedTierset): WireTierset {
    const currency = this.reference.currency(t.currency_id);
    const symbol = currency?.currency_symbol ?? '';
    return {
      tierset_id: t.tierset_id,
      currency_id: t.currency_id,
      setup: moneyToJson(t.setup),
      base: moneyToJson(t.base),
      minimum: moneyToJson(t.minimum),
      percent: t.percent.toFixed(6), // stop-check: deliberate, decimal.js percent as the recorded string
      paycycle: t.paycycle,
      pricemodel: t.pricemodel,
      write_datetime: this.wire.datetime(t.write_datetime),
      mod_datetime: this.wire.datetime(t.mod_datetime),
      currency_symbol: currency?.currency_symbol ?? null,
      currency_iso4217: currency?.currency_iso4217 ?? null,
      setup_formatted: formatAmount(symbol, t.setup),
      base_formatted: formatAmount(symbol, t.base),
      minimum_formatted: formatAmount(symbol, t.minimum),
      percent_formatted: `${t.percent.toString()} %`,
      pricemodel_desc: PRICE_MODEL_DESC[t.pricemodel] ?? null,
      tiers: tiers.map((tier) => ({
        tier_id: tier.tier_id,
        unit_from: moneyToJson(tier.unit_from),
        unit_to: moneyToJson(tier.unit_to),
        amount: moneyToJson(tier.amount),
        amount_formatted: formatAmount(symbol, tier.amount),
      })),
    };
  }
}
