import { typedDigits } from './typed-digits';

/** Card brands the service names (DESIGN §6 "Payment methods"). */
export type CardBrand = 'visa' | 'mast' | 'amex' | 'disc';

export const BRAND_NAMES: Readonly<Record<CardBrand, string>> = {
  visa: 'Visa',
  mast: 'MasterCard',
  amex: 'American Express',
  disc: 'Discover',
};

/** Digits only: spaces and dashes people type are dropped; anything else makes it invalid. */
export function normaliseCardNumber(raw: string): string | null {
  const digits = typedDigits(raw);
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

/** The Luhn (mod 10) check every card number carries. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The brand from the number's prefix (IIN ranges), or null for one we do not accept. */
export function cardBrand(digits: string): CardBrand | null {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/.test(digits)) return 'mast';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9]|622)/.test(digits)) return 'disc';
  return null;
}

/** `xxxx-xxxx-xxxx-4242`: only the last four digits survive. */
export function maskCardNumber(digits: string): string {
  return `xxxx-xxxx-xxxx-${digits.slice(-4)}`;
}

/** CVV: 4 digits on American Express, 3 on the others. */
export function isValidCvv(cvv: string, brand: CardBrand): boolean {
  return brand === 'amex' ? /^\d{4}$/.test(cvv) : /^\d{3}$/.test(cvv);
}
