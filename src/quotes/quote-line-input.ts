import Decimal from 'decimal.js';
import { ApiError } from 'src/core/envelope/api-error';
import { Money } from 'src/core/money/decimal';
import { parseDecimalInput } from 'src/core/money/decimal-input';
import { parseInputDatetime } from 'src/core/time/datetime-input';
import { isPlainObject } from 'src/core/validation/validate-body';
import { parseTierset, TiersetInput } from 'src/items/tierset-input';

/** One quote line as the client sent it, checked. */
export interface QuoteLineInput {
  path: string;
  /** On update: the existing line this entry names; alone it keeps that line unchanged. */
  line_item_id?: number;
  keep: boolean;
  item_id?: number;
  descrip?: string | null;
  line_rate?: Decimal;
  line_quantity?: Decimal;
  tierset?: TiersetInput;
  expire_recurs?: number | null;
  subscribe_prorate_from_datetime?: Date;
  subscribe_prorate_to_datetime?: Date;
  custom: Record<string, string | null>;
}

const CUSTOM = Array.from({ length: 20 }, (_, i) => `custom_${i + 1}`);
const UPDATE_FIELDS = ['line_item_id', 'item_id', 'descrip', 'line_rate', 'line_quantity', 'tierset', ...CUSTOM];
const CREATE_ONLY = ['expire_recurs', 'subscribe_prorate_from_datetime', 'subscribe_prorate_to_datetime'];
const READ_ONLY = [
  'quote_id',
  'tierset_id',
  'is_base',
  'item_name',
  'item_external_key',
  'item_token',
  'item_accounting_sku',
  'line_total',
  'line_subtotal',
];

/** `line_items` of a quote (SPEC "Quote line item"): at least one on create. */
export function parseQuoteLines(raw: unknown, zone: string, update: boolean): QuoteLineInput[] {
  if (raw === undefined || raw === null) {
    throw ApiError.badRequest('A required parameter was missing: "line_items" (at least one line item).');
  }
  if (!Array.isArray(raw)) throw ApiError.badRequest('Invalid field "line_items": must be an array.');
  if (raw.length === 0) throw ApiError.badRequest('Invalid field "line_items": at least one line item is required.');
  return raw.map((line: unknown, i) => parseLine(line, `line_items[${i}]`, zone, update));
}

function parseLine(raw: unknown, path: string, zone: string, update: boolean): QuoteLineInput {
  if (!isPlainObject(raw)) throw ApiError.badRequest(`Invalid field "${path}": must be an object.`);
  for (const key of Object.keys(raw)) {
    if (UPDATE_FIELDS.includes(key) || (!update && CREATE_ONLY.includes(key))) continue;
    const why = READ_ONLY.includes(key)
      ? 'is read-only'
      : CREATE_ONLY.includes(key)
        ? 'can only be set on create'
        : 'is not a field of a quote line';
    throw ApiError.badRequest(`Invalid field "${path}.${key}": ${why}.`);
  }
  if (!update && raw.line_item_id !== undefined) {
    throw ApiError.badRequest(`Invalid field "${path}.line_item_id": only an update names existing lines.`);
  }
  const custom: Record<string, string | null> = {};
  for (const key of CUSTOM) {
    const value = raw[key];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw ApiError.badRequest(`Invalid field "${path}.${key}": must be a string, number or boolean.`);
    }
    custom[key] = value === null ? null : String(value);
  }
  const line: QuoteLineInput = {
    path,
    line_item_id: raw.line_item_id === undefined ? undefined : id(raw.line_item_id, `${path}.line_item_id`),
    keep: raw.line_item_id !== undefined && Object.keys(raw).length === 1,
    item_id: raw.item_id === undefined ? undefined : id(raw.item_id, `${path}.item_id`),
    descrip: raw.descrip === undefined || raw.descrip === null ? raw.descrip : text(raw.descrip, `${path}.descrip`),
    line_rate: raw.line_rate === undefined ? undefined : parseDecimalInput(raw.line_rate, `${path}.line_rate`),
    line_quantity:
      raw.line_quantity === undefined
        ? undefined
        : parseDecimalInput(raw.line_quantity, `${path}.line_quantity`, { min: 0 }),
    tierset:
      raw.tierset === undefined || raw.tierset === null ? undefined : parseTierset(raw.tierset, `${path}.tierset`),
    expire_recurs:
      raw.expire_recurs === undefined || raw.expire_recurs === null
        ? null
        : id(raw.expire_recurs, `${path}.expire_recurs`),
    subscribe_prorate_from_datetime: datetime(
      raw.subscribe_prorate_from_datetime,
      `${path}.subscribe_prorate_from_datetime`,
      zone,
    ),
    subscribe_prorate_to_datetime: datetime(
      raw.subscribe_prorate_to_datetime,
      `${path}.subscribe_prorate_to_datetime`,
      zone,
    ),
    custom,
  };
  if (line.line_item_id === undefined && line.item_id === undefined) {
    throw ApiError.badRequest(`A required parameter was missing: "${path}.item_id".`);
  }
  return line;
}

/** The quantity a new line gets when none is sent. */
export const DEFAULT_QUANTITY = new Money(1);

function id(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 2_147_483_647) {
    throw ApiError.badRequest(`Invalid field "${field}": must be a positive integer.`);
  }
  return n;
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw ApiError.badRequest(`Invalid field "${field}": must be a string.`);
  return value;
}

function datetime(value: unknown, field: string, zone: string): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = typeof value === 'string' ? parseInputDatetime(value, zone) : null;
  if (!parsed) throw ApiError.badRequest(`Invalid field "${field}": not a valid date or datetime.`);
  return parsed;
}
