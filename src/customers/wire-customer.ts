import { customFields20 } from 'src/core/wire/custom-fields';
import { WireAddresses } from 'src/core/wire/wire-addresses';
import { Delivery } from './entities/customer.entity';

/**
 * A customer on the wire (SPEC "Customer"), as CustomerPresenter writes it: floats as
 * numbers, dates and datetimes as strings in the account zone, null where unset. It is
 * the presenter's return type: a field added there is a type error until declared here.
 */
export type WireCustomer = {
  superuser_id: number | null;
  external_key: string | null;
  token: string;
  company: string | null;
  bill_notes: null;
  ship_notes: null;
  terms_id: number;
  class_id: number | null;
  admin_id: number | null;
  campaign_id: number | null;
  campaign_details: string | null;
  custtype_id: null;
  currency_id: number;
  language_id: number;
  brand_id: number;
  parent_customer_id: number | null;
  no_taxes: boolean;
  no_dunning: boolean;
  no_latefees: boolean;
  no_procfees: boolean;
  invoice_delivery: Delivery;
  dunning_delivery: Delivery;
  tax_ident: string | null;
  write_datetime: string | null;
  write_ipaddr: string | null;
  mod_datetime: string | null;
  mod_ipaddr: string | null;
  class_name: string | null;
  terms_name: string | null;
  terms_days: number | null;
  admin_name: string | null;
  admin_email: string | null;
  paid: number;
  total: number;
  balance: number;
  mrr: number;
  arr: number;
  url_statementlink: string;
  url_paymethodlink: string;
  url_self: string;
  currency_symbol: string | null;
  currency_iso4217: string | null;
  display_as: string;
  ship_block: string;
  bill_block: string;
  superuser_token: string | null;
  superuser_username: string | null;
  superuser_name: string | null;
  superuser_first_name: string | null;
  superuser_last_name: string | null;
  superuser_phone: string | null;
  superuser_email: string | null;
  customer_status_id: number;
  customer_status_name: string;
  customer_status_str: string;
  customer_status_state: string;
  default_paymethod: string | null;
  default_creditcard_id: number | null;
  default_ach_id: number | null;
  customer_id: number;
  tags: string[];
} & WireAddresses &
  ReturnType<typeof customFields20>;
