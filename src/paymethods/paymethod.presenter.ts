import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { WireFormat } from 'src/core/wire/wire-format';
import { BRAND_NAMES, CardBrand } from './card-number';
import { AchAccount } from './entities/ach-account.entity';
import { CreditCard } from './entities/credit-card.entity';
import { TokenizedPaymethod } from './entities/tokenized-paymethod.entity';
import { WireBankAccount, WireCreditCard, WireTokenized } from './wire-paymethod';

const BANK_TYPE_NAMES: Readonly<Record<string, string>> = {
  chec: 'Checking',
  savi: 'Savings',
  busi: 'Business Checking',
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
