import Decimal from 'decimal.js';
import { ApiError } from 'src/core/envelope/api-error';
import { Money } from 'src/core/money/decimal';
import { parseDecimalInput } from 'src/core/money/decimal-input';
import { parseInputDatetime } from 'src/core/time/datetime-input';
import { isPlainObject } from 'src/core/validation/validate-body';
import { parseTierset, TiersetInput } from 'src/items/tierset-input';

/** One subscription line as the client sent it (create, or an upgrade entry), checked. */
export interface SubscriptionLineInput {
  path: string;
  /** Upgrade only: the line this entry replaces or removes. */
  line_item_id?: number;
  /** Upgrade only: remove `line_item_id`. */
  cancel: boolean;
  item_id?: number;
  descrip?: string | null;
  line_quantity: Decimal;
  tierset?: TiersetInput;
  /** A price already written (a quote line's): the line bills at it. */
  tierset_id?: number;
  trial_days: number;
  expire_recurs: number | null;
  subscribe_datetime?: Date;
  external_key: string | null;
  nickname: string;
  custom: Record<string, string | null>;
  /** Upgrade only: per-line proration flags (the recorded calls send them on the line). */
  subscribe_prorate?: boolean;
  cancel_prorate?: boolean;
}

const CUSTOM = ['custom_1', 'custom_2', 'custom_3'];
const CREATE_FIELDS = [
  'item_id',
  'descrip',
  'line_quantity',
  'tierset',
  'trial_days',
  'expire_recurs',
  'subscribe_datetime',
  'external_key',
  'nickname',
  ...CUSTOM,
];
const UPGRADE_FIELDS = [...CREATE_FIELDS, 'line_item_id', 'cancel', 'subscribe_prorate', 'cancel_prorate'];

/** `line_items` of POST /package (`upgrade`: false) or of action upgrade (`upgrade`: true). */
export function parseSubscriptionLines(raw: unknown, zone: string, upgrade: boolean): SubscriptionLineInput[] {
  if (raw === undefined || raw === null) {
    throw ApiError.badRequest('A required parameter was missing: "line_items" (at least one line item).');
  }
  if (!Array.isArray(raw)) throw ApiError.badRequest('Invalid field "line_items": must be an array.');
  if (raw.length === 0) throw ApiError.badRequest('Invalid field "line_items": at least one line item is required.');
  return raw.map((line: unknown, i) => parseLine(line, `line_items[${i}]`, zone, upgrade));
}

function parseLine(raw: unknown, path: string, zone: string, upgrade: boolean): SubscriptionLineInput {
  if (!isPlainObject(raw)) throw ApiError.badRequest(`Invalid field "${path}": must be an object.`);
  const allowed = upgrade ? UPGRADE_FIELDS : CREATE_FIELDS;
  const unknown = Object.keys(raw).find((key) => !allowed.includes(key));
  if (unknown) throw ApiError.badRequest(`Invalid field "${path}.${unknown}": not a field of a subscription line.`);
  const custom: Record<string, string | null> = {};
  for (const key of CUSTOM) if (raw[key] !== undefined) custom[key] = mixed(raw[key], `${path}.${key}`);
  const line: SubscriptionLineInput = {
    path,
    cancel: raw.cancel === undefined ? false : bool(raw.cancel, `${path}.cancel`),
    line_item_id: raw.line_item_id === undefined ? undefined : int(raw.line_item_id, `${path}.line_item_id`, 1),
    item_id: raw.item_id === undefined ? undefined : int(raw.item_id, `${path}.item_id`, 1),
    descrip: raw.descrip === undefined ? undefined : str(raw.descrip, `${path}.descrip`, 65535),
    line_quantity:
      raw.line_quantity === undefined || raw.line_quantity === null
        ? new Money(1)
        : parseDecimalInput(raw.line_quantity, `${path}.line_quantity`, { min: 0 }),
    tierset:
      raw.tierset === undefined || raw.tierset === null ? undefined : parseTierset(raw.tierset, `${path}.tierset`),
    trial_days:
      raw.trial_days === undefined || raw.trial_days === null ? 0 : int(raw.trial_days, `${path}.trial_days`, 0),
    expire_recurs:
      raw.expire_recurs === undefined || raw.expire_recurs === null
        ? null
        : int(raw.expire_recurs, `${path}.expire_recurs`, 1),
    subscribe_datetime:
      raw.subscribe_datetime === undefined || raw.subscribe_datetime === null
        ? undefined
        : datetime(raw.subscribe_datetime, `${path}.subscribe_datetime`, zone),
    external_key:
      raw.external_key === undefined || raw.external_key === null
        ? null
        : str(raw.external_key, `${path}.external_key`, 255),
    nickname: raw.nickname === undefined || raw.nickname === null ? '' : str(raw.nickname, `${path}.nickname`, 255),
    custom,
    subscribe_prorate:
      raw.subscribe_prorate === undefined ? undefined : bool(raw.subscribe_prorate, `${path}.subscribe_prorate`),
    cancel_prorate: raw.cancel_prorate === undefined ? undefined : bool(raw.cancel_prorate, `${path}.cancel_prorate`),
  };
  if (line.item_id === undefined && !(upgrade && line.line_item_id !== undefined && line.cancel)) {
    throw ApiError.badRequest(`A required parameter was missing: "${path}.item_id".`);
  }
  if (line.cancel && line.line_item_id === undefined) {
    throw ApiError.badRequest(`Field "${path}.cancel": name the line to remove with "line_item_id".`);
  }
  return line;
}

function int(value: unknown, field: string, min: number): number {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > 2_147_483_647) {
    throw ApiError.badRequest(`Invalid field "${field}": must be an integer of at least ${min}.`);
  }
  return n;
}

function bool(value: unknown, field: string): boolean {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  throw ApiError.badRequest(`Invalid field "${field}": must be a boolean (true or false).`);
}

function str(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw ApiError.badRequest(`Invalid field "${field}": must be a string.`);
  if (value.length > max) throw ApiError.badRequest(`Invalid field "${field}": at most ${max} characters.`);
  return value;
}

function mixed(value: unknown, field: string): string | null {
  if (value === null) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return str(value, field, 255);
}

function datetime(value: unknown, field: string, zone: string): Date {
  const parsed = typeof value === 'string' ? parseInputDatetime(value, zone) : null;
  if (!parsed) {
    throw ApiError.badRequest(
      `Invalid field "${field}": must be YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or an ISO 8601 datetime with offset.`,
    );
  }
  return parsed;
}
