import { Injectable } from '@nestjs/common';
import { contactName } from './contact.presenter';
import { Contact } from './entities/contact.entity';
import { moneyToJson } from 'src/core/money/decimal';
import { addressBlock, WireFormat } from 'src/core/wire/wire-format';
import { ReferenceService } from 'src/reference/reference.service';
import { CustomerFigures, EMPTY_FIGURES } from './customer-figures';
import { customerStatus } from './customer-status';
import { Customer } from './entities/customer.entity';
import { customFields20 } from 'src/core/wire/custom-fields';
import { WireCustomer } from './wire-customer';

/** The main-contact fields a customer shows: the only ones its read loads. */
export const SUPERUSER_COLUMNS = [
  'token',
  'username',
  'name',
  'first_name',
  'middle_name_glob',
  'last_name',
  'phone',
  'email',
] as const satisfies ReadonlyArray<keyof Contact>;
export type CustomerSuperuser = Pick<Contact, 'user_id' | (typeof SUPERUSER_COLUMNS)[number]>;

/** A customer row with its main contact loaded alongside (one join, never a query per row). */
export type CustomerWithSuperuser = Customer & { superuser?: CustomerSuperuser | null };

/** The wire shape of a customer: stored fields plus everything derived (field order as recorded). */
@Injectable()
export class CustomerPresenter {
  constructor(
    private readonly wire: WireFormat,
    private readonly reference: ReferenceService,
  ) {}

  present(c: CustomerWithSuperuser, figures: CustomerFigures = EMPTY_FIGURES): WireCustomer {
    const su = c.superuser ?? null;
    const terms = this.reference.terms(c.terms_id);
    const currency = this.reference.currency(c.currency_id);
    const admin = this.reference.admin(c.admin_id);
    const status = customerStatus(c.customer_status_str);
    const displayAs = c.company && c.company.trim() !== '' ? c.company : su ? contactName(su) : '';
    return {
      superuser_id: c.superuser_id,
      external_key: c.external_key,
      token: c.token,
      company: c.company,
      bill_addr1: c.bill_addr1,
      bill_addr2: c.bill_addr2,
      bill_addr3: c.bill_addr3,
      bill_city: c.bill_city,
      bill_state: c.bill_state,
      bill_postcode: c.bill_postcode,
      bill_country: c.bill_country,
      bill_notes: null,
      ship_addr1: c.ship_addr1,
      ship_addr2: c.ship_addr2,
      ship_addr3: c.ship_addr3,
      ship_city: c.ship_city,
      ship_state: c.ship_state,
      ship_postcode: c.ship_postcode,
      ship_country: c.ship_country,
      ship_notes: null,
      terms_id: c.terms_id,
      class_id: c.class_id,
      ...customFields20(c),
      admin_id: c.admin_id,
      campaign_id: c.campaign_id,
      campaign_details: c.campaign_details,
      custtype_id: null,
      currency_id: c.currency_id,
      language_id: c.language_id,
      brand_id: c.brand_id,
      parent_customer_id: c.parent_customer_id,
      no_taxes: c.no_taxes,
      no_dunning: c.no_dunning,
      no_latefees: c.no_latefees,
      no_procfees: c.no_procfees,
      invoice_delivery: c.invoice_delivery,
      dunning_delivery: c.dunning_delivery,
      tax_ident: c.tax_ident,
      write_datetime: this.wire.datetime(c.write_datetime),
      write_ipaddr: c.write_ipaddr,
      mod_datetime: this.wire.datetime(c.mod_datetime),
      mod_ipaddr: c.mod_ipaddr,
      class_name: this.reference.accountClass(c.class_id)?.class_name ?? null,
      terms_name: terms?.terms_name ?? null,
      terms_days: terms?.terms_days ?? null,
      admin_name: admin?.admin_name ?? null,
      admin_email: admin?.admin_email ?? null,
      paid: moneyToJson(figures.paid),
      total: moneyToJson(figures.total),
      balance: moneyToJson(figures.balance),
      mrr: moneyToJson(figures.mrr),
      arr: moneyToJson(figures.arr),
      url_statementlink: this.wire.pageUrl(`r/statement/i/${c.token}`),
      url_paymethodlink: this.wire.pageUrl(`r/paymethod/i/${c.token}`),
      url_self: this.wire.apiUrl('customer', c.customer_id),
      currency_symbol: currency?.currency_symbol ?? null,
      currency_iso4217: currency?.currency_iso4217 ?? null,
      display_as: displayAs,
      ship_block: addressBlock({
        addr1: c.ship_addr1,
        addr2: c.ship_addr2,
        addr3: c.ship_addr3,
        city: c.ship_city,
        state: c.ship_state,
        postcode: c.ship_postcode,
        country: c.ship_country,
      }),
      bill_block: addressBlock({
        addr1: c.bill_addr1,
        addr2: c.bill_addr2,
        addr3: c.bill_addr3,
        city: c.bill_city,
        state: c.bill_state,
        postcode: c.bill_postcode,
        country: c.bill_country,
      }),
      superuser_token: su?.token ?? null,
      superuser_username: su?.username ?? null,
      superuser_name: su ? contactName(su) : null,
      superuser_first_name: su?.first_name ?? null,
      superuser_last_name: su?.last_name ?? null,
      superuser_phone: su ? (su.phone ?? '') : null,
      superuser_email: su?.email ?? null,
      customer_status_id: status.id,
      customer_status_name: status.name,
      customer_status_str: status.str,
      customer_status_state: status.state,
      default_paymethod: c.default_paymethod,
      default_creditcard_id: c.default_creditcard_id,
      default_ach_id: c.default_ach_id,
      customer_id: c.customer_id,
      tags: c.tags ?? [],
    };
  }
}
