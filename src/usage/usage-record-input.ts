import Decimal from 'decimal.js';
import { ApiError } from 'src/core/envelope/api-error';
import { parseDecimalInput } from 'src/core/money/decimal-input';
import { RATE_LIMIT } from 'src/core/money/decimal.transformer';
import { parseInputDatetime } from 'src/core/time/datetime-input';
import { isPlainObject } from 'src/core/validation/validate-body';
import { USAGE_OPTIONS, USAGE_TYPES, UsageOption, UsageType } from 'src/billing/usage/usage-aggregation';

/** Which metered line a record is for: exactly one of SPEC's three selectors. */
export type UsageSelector =
  | { kind: 'line'; lineItemId: number }
  | { kind: 'lineKey'; externalKey: string }
  | { kind: 'package'; packageId: number }
  | { kind: 'customerItem'; customerKey: string; itemKey: string };

export interface UsageRecordInput {
  selector: UsageSelector;
  value: Decimal;
  type: UsageType;
  options: UsageOption[];
  from: Date;
  to: Date;
  externalKey: string | null;
}

const FIELDS = new Set([
  'line_item_id',
  'line_item_external_key',
  'package_id',
  'customer',
  'line_item',
  'customer.external_key',
  'line_item.item_external_key',
  'usage_value',
  'from',
  'to',
  'type',
  'option',
  'external_key',
]);

/**
 * Reads one usage record (SPEC "Usage"). The third selector may come as nested objects
 * (`customer: {external_key}`, `line_item: {item_external_key}`) or as the dotted names
 * SPEC writes. `from`/`to` default to now; every problem is a 400 naming the field.
 */
export function parseUsageRecord(body: unknown, now: Date, zone: string): UsageRecordInput {
  const fields = body === undefined || body === null || body === '' ? {} : body;
  if (!isPlainObject(fields)) throw ApiError.badRequest('A usage record must be a JSON object.');
  const unknown = Object.keys(fields).find((k) => !FIELDS.has(k));
  if (unknown !== undefined) throw ApiError.badRequest(`Invalid field: "${unknown}" is not a field of usage.`);
  if (fields.usage_value === undefined || fields.usage_value === null) {
    throw ApiError.badRequest('A required parameter was missing: "usage_value".');
  }
  const value = parseDecimalInput(fields.usage_value, 'usage_value', { min: 0, max: RATE_LIMIT });
  const from = datetimeField(fields, 'from', zone) ?? now;
  const to = datetimeField(fields, 'to', zone) ?? from;
  if (to.getTime() < from.getTime()) throw ApiError.badRequest('Field "to" must not be before "from".');
  return {
    selector: selectorOf(fields),
    value,
    type: typeOf(fields.type),
    options: optionsOf(fields.option),
    from,
    to,
    externalKey: externalKeyOf(fields.external_key),
  };
}

function selectorOf(fields: Record<string, unknown>): UsageSelector {
  const customerKey = nested(fields, 'customer', 'external_key');
  const itemKey = nested(fields, 'line_item', 'item_external_key');
  const given: UsageSelector[] = [];
  if (fields.line_item_id !== undefined) given.push({ kind: 'line', lineItemId: idField(fields, 'line_item_id') });
  if (fields.line_item_external_key !== undefined) {
    given.push({ kind: 'lineKey', externalKey: textField(fields.line_item_external_key, 'line_item_external_key') });
  }
  if (fields.package_id !== undefined) given.push({ kind: 'package', packageId: idField(fields, 'package_id') });
  if (customerKey !== undefined || itemKey !== undefined) {
    if (customerKey === undefined || itemKey === undefined) {
      throw ApiError.badRequest(
        'Fields "customer.external_key" and "line_item.item_external_key" must be sent together.',
      );
    }
    given.push({
      kind: 'customerItem',
      customerKey: textField(customerKey, 'customer.external_key'),
      itemKey: textField(itemKey, 'line_item.item_external_key'),
    });
  }
  if (given.length !== 1) {
    throw ApiError.badRequest(
      'Send exactly one of "line_item_id", "line_item_external_key", "package_id", or "customer.external_key" with "line_item.item_external_key".',
    );
  }
  return given[0];
}

/** `customer.external_key` as a dotted field or as `customer: {external_key}`. */
function nested(fields: Record<string, unknown>, parent: string, child: string): unknown {
  const dotted = fields[`${parent}.${child}`];
  const object = fields[parent];
  if (object === undefined) return dotted;
  if (!isPlainObject(object)) throw ApiError.badRequest(`Field "${parent}" must be an object.`);
  const extra = Object.keys(object).find((k) => k !== child);
  if (extra !== undefined) throw ApiError.badRequest(`Invalid field: "${parent}.${extra}" is not a field of usage.`);
  if (dotted !== undefined && object[child] !== undefined) {
    throw ApiError.badRequest(`Send "${parent}.${child}" once.`);
  }
  return object[child] ?? dotted;
}

function idField(fields: Record<string, unknown>, name: string): number {
  const raw = fields[name];
  const id = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : raw;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw ApiError.badRequest(`Invalid field "${name}": must be a positive integer.`);
  }
  return id;
}

function textField(raw: unknown, name: string): string {
  if (typeof raw !== 'string' || raw.trim() === '' || raw.length > 255) {
    throw ApiError.badRequest(`Invalid field "${name}": must be a non-empty string of at most 255 characters.`);
  }
  return raw;
}

function datetimeField(fields: Record<string, unknown>, name: string, zone: string): Date | null {
  const raw = fields[name];
  if (raw === undefined || raw === null || raw === '') return null;
  const parsed = typeof raw === 'string' ? parseInputDatetime(raw, zone) : null;
  if (!parsed) {
    throw ApiError.badRequest(
      `Invalid field "${name}": use YYYY-MM-DD, YYYY-MM-DD HH:mm:ss or YYYY-MM-DDTHH:mm:ss±hh:mm.`,
    );
  }
  return parsed;
}

function typeOf(raw: unknown): UsageType {
  if (raw === undefined || raw === null || raw === '') return 'add';
  if (typeof raw !== 'string' || !(USAGE_TYPES as readonly string[]).includes(raw)) {
    throw ApiError.badRequest(`Invalid field "type": must be one of ${USAGE_TYPES.join(', ')}.`);
  }
  return raw as UsageType;
}

function optionsOf(raw: unknown): UsageOption[] {
  if (raw === undefined || raw === null) return [];
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || list.length > USAGE_OPTIONS.length) {
    throw ApiError.badRequest(`Invalid field "option": must be an array of ${USAGE_OPTIONS.join(', ')}.`);
  }
  return list.map((o, i) => {
    if (typeof o !== 'string' || !(USAGE_OPTIONS as readonly string[]).includes(o)) {
      throw ApiError.badRequest(`Invalid field "option[${i}]": must be one of ${USAGE_OPTIONS.join(', ')}.`);
    }
    return o as UsageOption;
  });
}

function externalKeyOf(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  return textField(raw, 'external_key');
}
