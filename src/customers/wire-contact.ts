import { ApiProperty } from '@nestjs/swagger';
import { WireCustom20 } from 'src/core/wire/wire-custom-fields';

/** A customer a contact belongs to, as the contact shows it (its id as a string, as recorded). */
export class WireContactCustomer {
  @ApiProperty({ type: 'string', example: '97' }) customer_id: string;
  @ApiProperty({ type: 'string', nullable: true }) company: string | null;
}

/**
 * A contact (SPEC "Contact / user") on the wire, as presentContact writes it: money as numbers, dates and datetimes as
 * strings in the account zone, null where unset. It is the presenter's return type (a
 * field added there is a type error until declared here) and, through `@ApiProperty`, the
 * `response` of its envelope in the OpenAPI document.
 */
export class WireContact extends WireCustom20 {
  @ApiProperty({ type: 'integer' }) user_id: number;
  @ApiProperty({ type: 'string', nullable: true }) external_key: string | null;
  @ApiProperty({ type: 'string', nullable: true }) first_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) middle_name_glob: string | null;
  @ApiProperty({ type: 'string', nullable: true }) last_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) name_suffix: string | null;
  @ApiProperty({ type: 'string' }) title: string;
  @ApiProperty({ type: 'string', nullable: true }) email: string | null;
  @ApiProperty({ type: 'string' }) token: string;
  @ApiProperty({ type: 'string' }) phone: string;
  @ApiProperty({ type: 'string' }) mobile: string;
  @ApiProperty({ type: 'integer' }) user_type_id: number;
  @ApiProperty({ type: 'string', nullable: true }) user_type_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) mod_datetime: string | null;
  @ApiProperty({ type: 'string' }) name: string;
  @ApiProperty({ type: 'string' }) display_as: string;
  @ApiProperty({ type: 'string' }) username: string;
  @ApiProperty({ type: 'integer' }) customer_id: number;
  @ApiProperty({ type: 'string' }) url_self: string;
  @ApiProperty({ type: () => [WireContactCustomer] }) customers: WireContactCustomer[];
}
