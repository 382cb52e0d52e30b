import { randomInt } from 'node:crypto';

/** The 50 US states the seeded customers are spread over (customer n lives in STATES[n % 50]). */
export const STATES: readonly string[] = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY',
  'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND',
  'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
]; // prettier-ignore

/** Columns written by the seed, in the order of the values of `seedRow`. */
export const SEED_COLUMNS = [
  'customer_id',
  'token',
  'external_key',
  'company',
  'bill_addr1',
  'bill_city',
  'bill_state',
  'bill_postcode',
  'bill_country',
  'customer_status_str',
  'write_datetime',
  'write_ipaddr',
  'mod_datetime',
  'mod_ipaddr',
] as const;

export type SeedValue = string | number;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** UTC `YYYY-MM-DD HH:MM:SS`, the stored datetime form. */
export function sqlUtc(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Customer number `n` (1-based, also its id). The token is 6 random characters followed by
 * `n` in base 36, so it is 12 characters and unique without a lookup.
 */
export function seedRow(n: number, writtenAt: string): SeedValue[] {
  return [
    n,
    randomChars(6) + n.toString(36).padStart(6, '0'),
    `ext-${n}`,
    `Company ${n}`,
    `${n} Main Street`,
    'Springfield',
    STATES[n % STATES.length],
    String(10_000 + (n % 90_000)),
    'US',
    'active-current',
    writtenAt,
    '127.0.0.1',
    writtenAt,
    '127.0.0.1',
  ];
}

function randomChars(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** Customer numbers first..count in consecutive batches of at most `size`. */
export function* batches(count: number, size: number, first = 1): Generator<{ from: number; to: number }> {
  for (let from = first; from <= count; from += size) {
    yield { from, to: Math.min(count, from + size - 1) };
  }
}
