import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { WireAddresses } from 'src/core/wire/wire-addresses';
import { WireCustom20 } from 'src/core/wire/wire-custom-fields';
import { Delivery } from './entities/customer.entity';

/**
 * A customer (SPEC "Customer") on the wire, as CustomerPresenter writes it: money as numbers, dates and datetimes as
 * strings in the account zone, null where unset. It is the presenter's return type (a
 * field added there is a type error until declared here) and, through `@ApiProperty`, the
 * `response` of its envelope in the OpenAPI document.
 */
export class WireCustomer extends IntersectionType(WireAddresses, WireCustom20) {
  @ApiProperty({ type: 'integer', nullable: true }) superuser_id: number | null;
  @ApiProperty({ type: 'string', nullable: true }) external_key: string | null;
  @ApiProperty({ type: 'string' }) token: string;
  @ApiProperty({ type: 'string', nullable: true }) company: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'always null' }) bill_notes: null;
  @ApiProperty({ type: 'string', nullable: true, description: 'always null' }) ship_notes: null;
  @ApiProperty({ type: 'integer' }) terms_id: number;
  @ApiProperty({ type: 'integer', nullable: true }) class_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) admin_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) campaign_id: number | null;
  @ApiProperty({ type: 'string', nullable: true }) campaign_details: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'always null' }) custtype_id: null;
  @ApiProperty({ type: 'integer' }) currency_id: number;
  @ApiProperty({ type: 'integer' }) language_id: number;
  @ApiProperty({ type: 'integer' }) brand_id: number;
  @ApiProperty({ type: 'integer', nullable: true }) parent_customer_id: number | null;
  @ApiProperty({ type: 'boolean' }) no_taxes: boolean;
  @ApiProperty({ type: 'boolean' }) no_dunning: boolean;
  @ApiProperty({ type: 'boolean' }) no_latefees: boolean;
  @ApiProperty({ type: 'boolean' }) no_procfees: boolean;
  @ApiProperty({ enum: ['print', 'email'] }) invoice_delivery: Delivery;
  @ApiProperty({ enum: ['print', 'email'] }) dunning_delivery: Delivery;
  @ApiProperty({ type: 'string', nullable: true }) tax_ident: string | null;
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) write_ipaddr: string | null;
  @ApiProperty({ type: 'string', nullable: true }) mod_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) mod_ipaddr: string | null;
  @ApiProperty({ type: 'string', nullable: true }) class_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) terms_name: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) terms_days: number | null;
  @ApiProperty({ type: 'string', nullable: true }) admin_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) admin_email: string | null;
  @ApiProperty({ type: 'number' }) paid: number;
  @ApiProperty({ type: 'number' }) total: number;
  @ApiProperty({ type: 'number' }) balance: number;
  @ApiProperty({ type: 'number' }) mrr: number;
  @ApiProperty({ type: 'number' }) arr: number;
  @ApiProperty({ type: 'string' }) url_statementlink: string;
  @ApiProperty({ type: 'string' }) url_paymethodlink: string;
  @ApiProperty({ type: 'string' }) url_self: string;
  @ApiProperty({ type: 'string', nullable: true }) currency_symbol: string | null;
  @ApiProperty({ type: 'string', nullable: true }) currency_iso4217: string | null;
  @ApiProperty({ type: 'string' }) display_as: string;
  @ApiProperty({ type: 'string' }) ship_block: string;
  @ApiProperty({ type: 'string' }) bill_block: string;
  @ApiProperty({ type: 'string', nullable: true }) superuser_token: string | null;
  @ApiProperty({ type: 'string', nullable: true }) superuser_username: string | null;
  @ApiProperty({ type: 'string', nullable: true }) superuser_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) superuser_first_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) superuser_last_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) superuser_phone: string | null;
  @ApiProperty({ type: 'string', nullable: true }) superuser_email: string | null;
  @ApiProperty({ type: 'integer' }) customer_status_id: number;
  @ApiProperty({ type: 'string' }) customer_status_name: string;
  @ApiProperty({ type: 'string' }) customer_status_str: string;
  @ApiProperty({ type: 'string' }) customer_status_state: string;
  @ApiProperty({ type: 'string', nullable: true }) default_paymethod: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) default_creditcard_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) default_ach_id: number | null;
  @ApiProperty({ type: 'integer' }) customer_id: number;
  @ApiProperty({ type: [String] }) tags: string[];
}
