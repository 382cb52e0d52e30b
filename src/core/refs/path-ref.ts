/** A path reference: `<id>`, `external_key:<key>` or `token:<token>` (SPEC conventions). */
export type PathRef =
  { kind: 'id'; id: number } | { kind: 'external_key'; value: string } | { kind: 'token'; value: string };

const MAX_ID = 2_147_483_647;

/**
 * Returns null for anything that cannot name an object (the caller answers 404). `raw` is
 * the path parameter as the router hands it over, already percent-decoded once (a malformed
 * escape never gets here: the router answers it with a 400), so it is not decoded again: a
 * key `100%` is asked for as `external_key:100%25`, a key `a%20b` as `external_key:a%2520b`.
 */
export function parsePathRef(raw: string): PathRef | null {
  if (/^\d{1,10}$/.test(raw)) {
    const id = Number(raw);
    return id >= 1 && id <= MAX_ID ? { kind: 'id', id } : null;
  }
  if (raw.startsWith('external_key:') && raw.length > 13) {
    return { kind: 'external_key', value: raw.slice(13) };
  }
  if (raw.startsWith('token:') && raw.length > 6) {
    return { kind: 'token', value: raw.slice(6) };
  }
  return null;
}
