import { DocRequired } from 'src/core/validation/doc-fields';
import { SubscriptionLineInputDto } from './subscription-line.dto';
import { AddressWithNotesDto } from 'src/core/validation/address.dto';
import { Allow } from 'class-validator';
import { RECURRING_PAYCYCLES } from 'src/billing/cycles/cycle-length';
import { BodyRules } from 'src/core/validation/body-rules';
import { customFieldsDto, DateInputField, EnumField, IntField, StrField } from 'src/core/validation/field-decorators';

export const PAYMETHODS = ['crd', 'ach', 'tok', 'inv', 'any'] as const;
export type Paymethod = (typeof PAYMETHODS)[number];

export const SUBSCRIPTION_CUSTOMER_REFS = ['customer_id', 'customer_token', 'customer_external_key'] as const;

/** Fields the API returns for a subscription but never accepts. */
export const SUBSCRIPTION_READ_ONLY = [
  'package_id',
  'token',
  'write_datetime',
  'mod_datetime',
  'start_datetime',
  'suspendfrom_datetime',
  'suspendto_datetime',
  'cancel_datetime',
  'next_invoice_datetime',
  'cancel_reason',
  'terms_name',
  'terms_days',
  'currency_symbol',
  'currency_iso4217',
  'class_name',
  'amount_collected',
  'amount_invoiced',
  'amount_due',
  'is_overdue',
  'days_overdue',
  'paycycle_name',
  'paymethod_name',
  'url_self',
  'package_status_id',
  'package_status_name',
  'package_status_str',
  'package_status_state',
  'brand_id',
] as const;

/** The payment method fields (POST, PUT and actions paymethod / setPayMethod). */
export class SubscriptionPaymethodDto {
  @EnumField(PAYMETHODS) paymethod?: Paymethod;
  @IntField() creditcard_id?: number | null;
  @IntField() ach_id?: number | null;
  @IntField() tokenized_id?: number | null;
}

/** PUT /package (DESIGN §6 "Subscriptions"): the create fields minus customer, lines and paycycle. */
@customFieldsDto(5)
@BodyRules({ readOnly: [...SUBSCRIPTION_READ_ONLY, ...SUBSCRIPTION_CUSTOMER_REFS, 'paycycle', 'line_items'] })
export class UpdateSubscriptionDto extends AddressWithNotesDto {
  @EnumField(PAYMETHODS) paymethod?: Paymethod;
  @IntField() creditcard_id?: number | null;
  @IntField() ach_id?: number | null;
  @IntField() tokenized_id?: number | null;
  @StrField() nickname?: string;
  @StrField() external_key?: string | null;
  @IntField({ nullable: false }) terms_id?: number;
  @IntField() class_id?: number | null;
  @IntField() admin_id?: number | null;
  @IntField({ nullable: false }) currency_id?: number;
  @DateInputField() holduntil_datetime?: string | null;
}

/** POST /package: the customer comes as a payload ref; `line_items` are read by parseSubscriptionLines. */
@BodyRules({ readOnly: SUBSCRIPTION_READ_ONLY, requireData: true, extraAllowed: SUBSCRIPTION_CUSTOMER_REFS })
export class CreateSubscriptionDto extends UpdateSubscriptionDto {
  @EnumField(RECURRING_PAYCYCLES) paycycle?: string;
  @Allow() @DocRequired({ type: () => [SubscriptionLineInputDto] }) line_items?: unknown;
}
