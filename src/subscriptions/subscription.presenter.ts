import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { paycycleName } from 'src/billing/paycycles';
import { moneyToJson } from 'src/core/money/decimal';
import { customFields5 } from 'src/core/wire/custom-fields';
import { WireFormat } from 'src/core/wire/wire-format';
import { Item } from 'src/items/entities/item.entity';
import { LoadedTierset } from 'src/items/tierset-loader';
import { TiersetPresenter } from 'src/items/tierset.presenter';
import { ReferenceService } from 'src/reference/reference.service';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { SUBSCRIPTION_STATUSES, SubscriptionStatusStr } from './subscription-status';
import { WireSubscription, WireSubscriptionLine } from './wire-subscription';

/** The money and status a subscription's invoices and lines give it (subscription-reader.ts). */
export interface SubscriptionFigures {
  amount_invoiced: Decimal;
  amount_collected: Decimal;
  amount_due: Decimal;
  is_overdue: boolean;
  days_overdue: number;
  status: SubscriptionStatusStr;
}

/** A line with the item columns a read of lines for the wire loads (LINE_ITEM_COLUMNS). */
export type LineWithItem = SubscriptionLine & {
  item?: Pick<Item, 'item_id' | (typeof LINE_ITEM_COLUMNS)[number]> | null;
};

/** The item columns `line` presents: all a read of lines for the wire needs to join. */
export const LINE_ITEM_COLUMNS = [
  'name',
  'external_key',
  'accounting_sku',
  'token',
  'units',
  'item_type',
  'is_usage',
] as const satisfies ReadonlyArray<keyof Item>;

const PAYMETHOD_NAMES: Readonly<Record<string, string>> = {
  crd: 'Credit Card',
  ach: 'ACH',
  tok: 'Tokenized',
  inv: 'Invoice',
  any: 'Any',
};

/** The wire shapes of a subscription and its lines (field order as recorded, SPEC's other fields after). */
@Injectable()
export class SubscriptionPresenter {
  constructor(
    private readonly wire: WireFormat,
    private readonly reference: ReferenceService,
    private readonly tiersets: TiersetPresenter,
  ) {}

  overview(p: Subscription, f: SubscriptionFigures): WireSubscription {
    const currency = this.reference.currency(p.currency_id);
    const terms = this.reference.terms(p.terms_id);
    const status = SUBSCRIPTION_STATUSES[f.status];
    return {
      terms_id: p.terms_id,
      currency_id: p.currency_id,
      external_key: p.external_key,
      token: p.token,
      nickname: p.nickname,
      paymethod: p.paymethod,
      paycycle: p.paycycle,
      bill_addr1: p.bill_addr1,
      bill_addr2: p.bill_addr2,
      bill_addr3: p.bill_addr3,
      bill_city: p.bill_city,
      bill_state: p.bill_state,
      bill_postcode: p.bill_postcode,
      bill_country: p.bill_country,
      bill_notes: p.bill_notes,
      ship_addr1: p.ship_addr1,
      ship_addr2: p.ship_addr2,
      ship_addr3: p.ship_addr3,
      ship_city: p.ship_city,
      ship_state: p.ship_state,
      ship_postcode: p.ship_postcode,
      ship_country: p.ship_country,
      ship_notes: p.ship_notes,
      creditcard_id: p.creditcard_id,
      ach_id: p.ach_id,
      tokenized_id: p.tokenized_id,
      ...customFields5(p),
      write_datetime: this.wire.datetime(p.write_datetime),
      mod_datetime: this.wire.datetime(p.mod_datetime),
      suspendfrom_datetime: this.wire.datetime(p.suspendfrom_datetime),
      suspendto_datetime: this.wire.datetime(p.suspendto_datetime),
      cancel_datetime: this.wire.datetime(p.cancel_datetime),
      holduntil_datetime: this.wire.datetime(p.holduntil_datetime),
      currency_symbol: currency?.currency_symbol ?? null,
      currency_iso4217: currency?.currency_iso4217 ?? null,
      amount_collected: moneyToJson(f.amount_collected),
      amount_invoiced: moneyToJson(f.amount_invoiced),
      amount_due: moneyToJson(f.amount_due),
      // The recording shows "" (not null) once nothing is due any more.
      next_invoice_datetime: this.wire.datetime(p.next_invoice_datetime) ?? '',
      package_id: p.package_id,
      customer_id: p.customer_id,
      package_status_id: status.id,
      package_status_name: status.name,
      package_status_str: f.status,
      package_status_state: status.state,
      start_datetime: this.wire.datetime(p.start_datetime),
      cancel_reason: p.cancel_reason,
      terms_name: terms?.terms_name ?? null,
      terms_days: terms?.terms_days ?? null,
      class_id: p.class_id,
      class_name: this.reference.accountClass(p.class_id)?.class_name ?? null,
      admin_id: p.admin_id,
      brand_id: p.brand_id,
      is_overdue: f.is_overdue,
      days_overdue: f.days_overdue,
      paycycle_name: paycycleName(p.paycycle),
      paymethod_name: PAYMETHOD_NAMES[p.paymethod] ?? null,
      url_self: this.wire.apiUrl('package', p.package_id),
    };
  }

  line(l: LineWithItem, tierset: LoadedTierset | undefined): WireSubscriptionLine {
    const item = l.item ?? null;
    return {
      item_id: l.item_id,
      tierset_id: l.tierset_id,
      external_key: l.external_key,
      nickname: l.nickname,
      descrip: l.descrip,
      trial_days: l.trial_days,
      trial_units: l.trial_units,
      custom_1: l.custom_1,
      custom_2: l.custom_2,
      custom_3: l.custom_3,
      subscribe_datetime: this.wire.datetime(l.subscribe_datetime),
      cancel_datetime: this.wire.datetime(l.cancel_datetime),
      expire_datetime: this.wire.datetime(l.expire_datetime),
      expire_recurs: l.expire_recurs,
      license: l.license,
      item_name: item?.name ?? null,
      item_external_key: item?.external_key ?? null,
      item_accounting_sku: item?.accounting_sku ?? null,
      item_token: item?.token ?? null,
      item_units: item?.units ?? null,
      line_item_id: l.line_item_id,
      tierset: tierset ? this.tiersets.present(tierset) : null,
      package_id: l.package_id,
      admin_id: l.admin_id,
      line_quantity: moneyToJson(l.line_quantity),
      trial_recurs: l.trial_recurs,
      subscribe_prorate_from_datetime: this.wire.datetime(l.subscribe_prorate_from_datetime),
      subscribe_prorate_to_datetime: this.wire.datetime(l.subscribe_prorate_to_datetime),
      item_type: item?.item_type ?? null,
      item_is_usage: item?.is_usage ?? false,
    };
  }
}
