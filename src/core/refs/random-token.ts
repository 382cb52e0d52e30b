import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** An object token: 12 random lowercase alphanumerics (DESIGN §4), from the CSPRNG. */
export function randomToken(length = 12): string {
  let token = '';
  for (let i = 0; i < length; i++) token += ALPHABET[randomInt(ALPHABET.length)];
  return token;
}
