import { ApiExtraModels, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { Doc, DocDecimal, DocRequired } from 'src/core/validation/doc-fields';

/** An entry of `applied_to` (read by `parseAppliedTo`): an invoice, optionally a split amount. */
export class AppliedToInputDto {
  @DocRequired({ type: 'integer', example: 1 }) invoice_id!: number;
  @Doc({ type: 'integer', description: 'pays against that scheduled payment or installment' })
  invoice_schedule_id?: number;
  @DocDecimal('the amount applied to this invoice (a split)', 10) applied?: number | string;
}

/**
 * An entry of a payment's `paymethods`: a stored method (`creditcard_id`, `ach_id` or
 * `tokenized_id`), a new card (`number`, `expdate_year`, `expdate_month`, `cvv`) or a new
 * bank account (`type`, `number`, `routing`, `name`).
 */
export class PaymethodInputDto {
  @Doc({ type: 'integer' }) creditcard_id?: number;
  @Doc({ type: 'integer' }) ach_id?: number;
  @Doc({ type: 'integer' }) tokenized_id?: number;
  @Doc({ type: 'string', example: '4111111111111111', description: 'a card or bank account number' }) number?: string;
  @Doc({ type: 'integer', example: 2030 }) expdate_year?: number;
  @Doc({ type: 'integer', example: 12 }) expdate_month?: number;
  @Doc({ type: 'string', example: '123' }) cvv?: string;
  @Doc({ type: 'string', example: 'chec', description: 'bank account type' }) type?: string;
  @Doc({ type: 'string', example: '072403004' }) routing?: string;
  @Doc({ type: 'string' }) name?: string;
}

/** `POST /invoice/<id>?action=pay`: charge the invoice, or put the customer's open credit on it. */
export class InvoicePayInputDto {
  @Doc({ type: 'boolean', enum: [true], description: "apply the customer's unapplied payments and credits instead" })
  use_customer_balance?: boolean;
  @DocDecimal('default: the balance', 49) amount?: number | string;
  @Doc({ type: () => [PaymethodInputDto] }) paymethods?: PaymethodInputDto[];
}

/** `applied_to`: invoice ids (`[10088]`, `["10064"]`, as recorded) or entries with a split. */
export const APPLIED_TO_SCHEMA: ApiPropertyOptions = {
  type: 'array',
  items: {
    oneOf: [
      { $ref: getSchemaPath(AppliedToInputDto) },
      { type: 'integer', minimum: 1 },
      { type: 'string', pattern: '^[1-9]\\d{0,9}$' },
    ],
  },
};

/** Puts AppliedToInputDto in the document beside a DTO whose `applied_to` refers to it. */
export const WithAppliedTo = (): ClassDecorator => ApiExtraModels(AppliedToInputDto);
