import { USAGE_OPTIONS, USAGE_TYPES } from 'src/billing/usage/usage-aggregation';
import { Doc, DocRequired } from 'src/core/validation/doc-fields';

/** `{external_key}` of the customer (selector 3, with `line_item.item_external_key`). */
export class UsageCustomerRefDto {
  @DocRequired({ type: 'string' }) external_key!: string;
}

/** `{item_external_key}` of the line's item (selector 3). */
export class UsageLineRefDto {
  @DocRequired({ type: 'string' }) item_external_key!: string;
}

/**
 * A usage record as `POST /usage` takes it (read by `parseUsageRecord`): the metered line by
 * exactly one of `line_item_id` / `line_item_external_key`, `package_id`, or `customer` with
 * `line_item` (or the dotted `customer.external_key` and `line_item.item_external_key`).
 */
export class UsageRecordInputDto {
  @Doc({ type: 'integer', example: 12 }) line_item_id?: number;
  @Doc({ type: 'string' }) line_item_external_key?: string;
  @Doc({ type: 'integer', description: 'a subscription with exactly one metered line' }) package_id?: number;
  @Doc({ type: () => UsageCustomerRefDto }) customer?: UsageCustomerRefDto;
  @Doc({ type: () => UsageLineRefDto }) line_item?: UsageLineRefDto;
  @Doc({ type: 'string' }) 'customer.external_key'?: string;
  @Doc({ type: 'string' }) 'line_item.item_external_key'?: string;
  @DocRequired({ oneOf: [{ type: 'number' }, { type: 'string' }], example: 42 }) usage_value!: number | string;
  @Doc({ type: 'string', example: '2026-11-01', description: 'a date or datetime (default: now)' }) from?: string;
  @Doc({ type: 'string', example: '2026-11-01', description: 'a date or datetime (default: now)' }) to?: string;
  @Doc({ type: 'string', enum: [...USAGE_TYPES], default: 'add' }) type?: string;
  @Doc({ type: 'array', items: { type: 'string', enum: [...USAGE_OPTIONS] } }) option?: string[];
  @Doc({ type: 'string', nullable: true }) external_key?: string | null;
}
