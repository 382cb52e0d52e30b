import { StrField } from './field-decorators';

/**
 * The billing and shipping address of a customer, invoice, quote or subscription (SPEC:
 * "bill_addr1..3, bill_city, ..., the same ship_* fields"), written once; each resource's
 * DTO extends it.
 */
export class AddressDto {
  @StrField() bill_addr1?: string | null;
  @StrField() bill_addr2?: string | null;
  @StrField() bill_addr3?: string | null;
  @StrField(128) bill_city?: string | null;
  @StrField(128) bill_state?: string | null;
  @StrField(32) bill_postcode?: string | null;
  @StrField(128) bill_country?: string | null;
  @StrField() ship_addr1?: string | null;
  @StrField() ship_addr2?: string | null;
  @StrField() ship_addr3?: string | null;
  @StrField(128) ship_city?: string | null;
  @StrField(128) ship_state?: string | null;
  @StrField(32) ship_postcode?: string | null;
  @StrField(128) ship_country?: string | null;
}

/** The address with the (deprecated) notes invoices, quotes and subscriptions still take. */
export class AddressWithNotesDto extends AddressDto {
  @StrField() bill_notes?: string | null;
  @StrField() ship_notes?: string | null;
}
