import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { WireFormat } from 'src/core/wire/wire-format';
import { BRAND_NAMES, CardBrand } from './card-number';
import { AchAccount } from './entities/ach-account.entity';
import { CreditCard } from './entities/credit-card.entity';
import { TokenizedPaymethod } from './entities/tokenized-paymethod.entity';

const BANK_TYPE_NAMES: Readonly<Record<string, string>> = {
  chec: 'Checking',
  savi: 'Savings',
  busi: 'Business Checking',
};

/** A `/creditcard` on the wire: never the full number or the CVV. */
export type WireCreditCard = {
  creditcard_id: number;
  external_key: string | null;
  type: string;
  token: string;
  expdate: string;
  write_datetime: string | null;
  write_ipaddr: string | null;
  mask_number: string;
  name: string;
  expdate_month: string;
  expdate_year: string;
  expdate_formatted: string;
  type_name: string;
  customer_id: number;
  address: string | null;
  city: string | null;
  state: string | null;
  postcode: string | null;
  country: string | null;
  url_self: string;
};

/** An `/ach` bank account on the wire. */
export type WireBankAccount = {
  ach_id: number;
  external_key: string | null;
  type: string;
  token: string;
  write_datetime: string | null;
  write_ipaddr: string | null;
  mask_number: string;
  routing: string;
  name: string;
  bank: string;
  type_name: string;
  customer_id: number;
  url_self: string;
};

/** A `/tokenized` payment method on the wire: `token` is the outside vault's. */
export type WireTokenized = {
  tokenized_id: number;
  type: string | null;
  token: string;
  customer_id: number;
  name: string | null;
  paymethod_hint: string | null;
  type_hint: string | null;
  expdate: string | null;
  /** The last four digits the gateway told of it (`xxxx-xxxx-xxxx-4242`), null when it told none. */
  mask_number: string | null;
  write_datetime: string | null;
};

/** Wire shapes of stored payment methods (field order as recorded). */
@Injectable()
export class PaymethodPresenter {
  constructor(private readonly wire: WireFormat) {}

  card(c: CreditCard): WireCreditCard {
    const month = String(c.expdate_month).padStart(2, '0');
    return {
      creditcard_id: c.creditcard_id,
      external_key: c.external_key,
      type: c.type,
      token: c.token,
      expdate: `${c.expdate_year}-${month}-01`,
      write_datetime: this.wire.datetime(c.write_datetime),
      write_ipaddr: c.write_ipaddr,
      mask_number: `xxxx-xxxx-xxxx-${c.last4}`,
      name: c.name ?? '',
      expdate_month: String(c.expdate_month),
      expdate_year: String(c.expdate_year),
      expdate_formatted: DateTime.fromObject({ year: c.expdate_year, month: c.expdate_month }).toFormat('LLL yyyy'),
      type_name: BRAND_NAMES[c.type as CardBrand] ?? c.type,
      customer_id: c.customer_id,
      address: c.address,
      city: c.city,
      state: c.state,
      postcode: c.postcode,
      country: c.country,
      url_self: this.wire.apiUrl('creditcard', c.creditcard_id),
    };
  }

  bankAccount(a: AchAccount): WireBankAccount {
    return {
      ach_id: a.ach_id,
      external_key: a.external_key,
      type: a.type,
      token: a.token,
      write_datetime: this.wire.datetime(a.write_datetime),
      write_ipaddr: a.write_ipaddr,
      mask_number: a.mask_number,
      routing: a.routing,
      name: a.name ?? '',
      bank: a.bank ?? '',
      type_name: BANK_TYPE_NAMES[a.type] ?? a.type,
      customer_id: a.customer_id,
      url_self: this.wire.apiUrl('ach', a.ach_id),
    };
  }

  tokenized(t: TokenizedPaymethod): WireTokenized {
    return {
      tokenized_id: t.tokenized_id,
      type: t.type,
      token: t.vault_token,
      customer_id: t.customer_id,
      name: t.name,
      paymethod_hint: t.paymethod_hint,
      type_hint: t.type_hint,
      expdate: t.expdate,
      mask_number: t.last4 === null ? null : `xxxx-xxxx-xxxx-${t.last4}`,
      write_datetime: this.wire.datetime(t.write_datetime),
    };
  }
}
