import Decimal from 'decimal.js';
import { PAYCYCLES } from 'src/billing/paycycles';
import { ApiError } from 'src/core/envelope/api-error';
import { parseDecimalInput } from 'src/core/money/decimal-input';
import { asObject } from 'src/core/validation/validate-body';

/** One line as the client sent it, checked. */
export interface LineInput {
  path: string;
  /** Set on update: the existing line this entry names. */
  line_item_id?: number;
  /** Only `line_item_id` was sent: keep that line unchanged. */
  keep: boolean;
  item_id?: number;
  paycycle?: string;
  descrip?: string | null;
  line_rate?: Decimal;
  line_quantity?: Decimal;
  custom: Record<string, string | null>;
}

const CUSTOM = Array.from({ length: 10 }, (_, i) => `custom_${i + 1}`);
const WRITABLE = new Set(['line_item_id', 'item_id', 'paycycle', 'descrip', 'line_rate', 'line_quantity', ...CUSTOM]);
/** Line fields the API returns but never accepts (SPEC "Line item, read-only additions"). */
const READ_ONLY = new Set([
  'invoice_id',
  'admin_id',
  'item_name',
  'item_accounting_sku',
  'item_external_key',
  'item_token',
  'item_units',
  'tierset_id',
  'package_line_id',
  'line_prorate',
  'line_usage',
  'line_subtotal',
  'line_total',
  'tax_taxable',
  'tax_taxed',
  'tax_total',
  'tax_id',
  'tax_group_id',
  'tax_name',
  'tax_group_name',
  'is_usage',
  'is_setup',
  'is_base',
  'is_free',
  'is_recurring',
  'is_taxed',
  'is_latefee',
  'is_obligation',
]);

function positiveInt(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 2_147_483_647) {
    throw ApiError.badRequest(`Invalid field "${field}": must be an integer id.`);
  }
  return n;
}

/** Reads `line_items`; `updating` allows `line_item_id`. Every problem is a 400 naming `line_items[i].field`. */
export function parseLineItems(raw: unknown, updating: boolean): LineInput[] {
  if (!Array.isArray(raw)) throw ApiError.badRequest('Invalid field "line_items": must be an array of line items.');
  if (raw.length === 0) throw ApiError.badRequest('Invalid field "line_items": at least one line item is required.');
  if (raw.length > 500) throw ApiError.badRequest('Invalid field "line_items": at most 500 line items.');
  return raw.map((sent: unknown, i): LineInput => {
    const path = `line_items[${i}]`;
    const line = asObject(sent);
    if (!line) throw ApiError.badRequest(`Invalid field "${path}": must be an object.`);
    for (const key of Object.keys(line)) {
      if (READ_ONLY.has(key)) throw ApiError.badRequest(`Invalid field "${path}.${key}": it is read-only.`);
      if (!WRITABLE.has(key) || (key === 'line_item_id' && !updating)) {
        throw ApiError.badRequest(`Invalid field "${path}.${key}": not a known line item field.`);
      }
    }
    const input: LineInput = { path, keep: false, custom: {} };
    if (line.line_item_id !== undefined) input.line_item_id = positiveInt(line.line_item_id, `${path}.line_item_id`);
    input.keep = input.line_item_id !== undefined && Object.keys(line).length === 1;
    if (line.item_id !== undefined) input.item_id = positiveInt(line.item_id, `${path}.item_id`);
    if (input.item_id === undefined && input.line_item_id === undefined) {
      throw ApiError.badRequest(`A required parameter was missing: "${path}.item_id".`);
    }
    if (line.paycycle !== undefined) {
      if (typeof line.paycycle !== 'string' || !PAYCYCLES.includes(line.paycycle)) {
        throw ApiError.badRequest(`Invalid field "${path}.paycycle": must be one of: ${PAYCYCLES.join(', ')}.`);
      }
      input.paycycle = line.paycycle;
    }
    if (line.descrip !== undefined) {
      if (line.descrip !== null && (typeof line.descrip !== 'string' || line.descrip.length > 65535)) {
        throw ApiError.badRequest(`Invalid field "${path}.descrip": must be a string.`);
      }
      input.descrip = line.descrip;
    }
    if (line.line_rate !== undefined && line.line_rate !== null) {
      input.line_rate = parseDecimalInput(line.line_rate, `${path}.line_rate`);
    }
    if (line.line_quantity !== undefined && line.line_quantity !== null) {
      input.line_quantity = parseDecimalInput(line.line_quantity, `${path}.line_quantity`, { min: 0 });
    }
    for (const key of CUSTOM) {
      const value = line[key];
      if (value === undefined) continue;
      if (value === null) {
        input.custom[key] = null;
      } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        // As for the invoice's own custom fields: refused, never cut short.
        if (String(value).length > 255) {
          throw ApiError.badRequest(`Invalid field "${path}.${key}": at most 255 characters.`);
        }
        input.custom[key] = String(value);
      } else {
        throw ApiError.badRequest(`Invalid field "${path}.${key}": must be a string, number or boolean.`);
      }
    }
    return input;
  });
}
