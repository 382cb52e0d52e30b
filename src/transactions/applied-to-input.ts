import { ApiError } from 'src/core/envelope/api-error';
import { isPlainObject } from 'src/core/validation/validate-body';
import { parseAmount } from './amount-input';
import { ApplicationStyle } from './allocation';

type ListStyle = Extract<ApplicationStyle, { kind: 'list' }>;

const ID = /^[1-9]\d{0,9}$/;

function idOf(value: unknown, field: string): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !ID.test(text)) throw ApiError.badRequest(`Field "${field}" must be an invoice id.`);
  return Number(text);
}

/**
 * `applied_to` as sent: invoice ids (`[10088]`, `["10064"]`, as recorded) or objects
 * `{invoice_id, invoice_schedule_id?, applied?}`. An invoice listed twice is refused.
 */
export function parseAppliedTo(raw: unknown): ListStyle {
  if (!Array.isArray(raw)) throw ApiError.badRequest('Field "applied_to" must be an array of invoices.');
  const seen = new Set<number>();
  const items = raw.map((entry: unknown, i) => {
    const at = `applied_to[${i}]`;
    let item: ListStyle['items'][number];
    if (isPlainObject(entry)) {
      const unknown = Object.keys(entry).filter((k) => !['invoice_id', 'invoice_schedule_id', 'applied'].includes(k));
      if (unknown.length) throw ApiError.badRequest(`Field "${at}": "${unknown[0]}" is not a known field.`);
      if (entry.invoice_id === undefined) {
        throw ApiError.badRequest(`A required parameter was missing: "${at}.invoice_id".`);
      }
      const applied = entry.applied === undefined ? null : parseAmount(entry.applied, `${at}.applied`);
      if (applied !== null && applied.lt(0)) throw ApiError.badRequest(`Field "${at}.applied" must not be negative.`);
      item = {
        invoice_id: idOf(entry.invoice_id, `${at}.invoice_id`),
        invoice_schedule_id:
          entry.invoice_schedule_id === undefined || entry.invoice_schedule_id === null
            ? null
            : idOf(entry.invoice_schedule_id, `${at}.invoice_schedule_id`),
        applied,
      };
    } else {
      item = { invoice_id: idOf(entry, at), invoice_schedule_id: null, applied: null };
    }
    if (seen.has(item.invoice_id)) {
      throw ApiError.badRequest(`Field "${at}": invoice ${item.invoice_id} is listed more than once.`);
    }
    seen.add(item.invoice_id);
    return item;
  });
  return { kind: 'list', items };
}

/** Exactly one application style, or none (SPEC: `applied_to` ids, `applied_to` splits, or `auto_apply`). */
export function applicationStyleOf(appliedTo: unknown, autoApply: string | undefined): ApplicationStyle {
  if (appliedTo !== undefined && autoApply !== undefined) {
    throw ApiError.badRequest('Send only one of "applied_to" and "auto_apply": they are two ways to apply the money.');
  }
  if (autoApply !== undefined) return { kind: 'auto', order: autoApply as 'oldest_first' };
  if (appliedTo === undefined || appliedTo === null) return { kind: 'none' };
  return parseAppliedTo(appliedTo);
}
