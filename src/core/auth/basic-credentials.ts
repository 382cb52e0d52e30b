/** A user-id and password pair read from an `Authorization: Basic` header. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** RFC 7617 §2: token68 base64 (padding optional), and nothing after it but spaces. */
const BASIC_HEADER = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;

/**
 * Reads HTTP Basic credentials per RFC 7617: exactly the `Basic` scheme (case-insensitive,
 * RFC 7235 §2.1), one base64 token and nothing after it, the user-id ending at the FIRST
 * colon (a user-id cannot contain one; the password may). Anything else is null (401).
 */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | null {
  if (header === undefined) return null;
  const match = BASIC_HEADER.exec(header);
  if (!match) return null;
  const token = match[1];
  if (token.replace(/=+$/, '').length % 4 === 1) return null;
  const decoded = Buffer.from(token, 'base64');
  const text = decoded.toString('utf8');
  // Bytes that are not UTF-8 (or control characters, RFC 7617 §2) can name no credential.
  if (!Buffer.from(text, 'utf8').equals(decoded) || hasControlCharacter(text)) return null;
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return null;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
