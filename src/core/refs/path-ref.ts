/** A path reference: `<id>`, `external_key:<key>` or `token:<token>` (SPEC conventions). */
export type PathRef =
  { kind: 'id'; id: number } | { kind: 'external_key'; value: string } | { kind: 'token'; value: string };

const MAX_ID = 2_147_483_647;

/** Returns null for anything that cannot name an object (the caller answers 404). */
export function parsePathRef(raw: string): PathRef | null {
  const decoded = safeDecode(raw);
  if (decoded === null) return null;
  if (/^\d{1,10}$/.test(decoded)) {
    const id = Number(decoded);
    return id >= 1 && id <= MAX_ID ? { kind: 'id', id } : null;
  }
  if (decoded.startsWith('external_key:') && decoded.length > 13) {
    return { kind: 'external_key', value: decoded.slice(13) };
  }
  if (decoded.startsWith('token:') && decoded.length > 6) {
    return { kind: 'token', value: decoded.slice(6) };
  }
  return null;
}

function safeDecode(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}
