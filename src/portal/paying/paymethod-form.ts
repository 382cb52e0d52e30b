import { ApiError } from 'src/core/envelope/api-error';

/** `stripe`: a PaymentMethod id (`pm_…`) Stripe.js made in the browser; no card data at all. */
export type PaymethodKind = 'card' | 'ach' | 'stripe';

export interface PaymethodForm {
  kind: PaymethodKind;
  /** The fields as the API's payment and paymethod endpoints take them. */
  fields: Record<string, string>;
}

const FIELDS: Record<PaymethodKind, string[]> = {
  card: ['number', 'expdate_year', 'expdate_month', 'cvv', 'name'],
  ach: ['type', 'number', 'routing', 'name'],
  stripe: ['payment_method'],
};

/**
 * A posted card or bank-account form. Spaces and dashes people type in numbers are
 * dropped; empty fields are left out, so the API's own checks name what is missing.
 */
export function paymethodForm(body: unknown): PaymethodForm {
  const form = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const kind = form.method;
  if (kind !== 'card' && kind !== 'ach' && kind !== 'stripe') {
    throw ApiError.badRequest('Choose to pay by card or by bank account.');
  }
  const fields: Record<string, string> = {};
  for (const name of FIELDS[kind]) {
    const raw = form[name];
    if (typeof raw !== 'string') continue;
    const value =
      name === 'name' || name === 'type' || name === 'payment_method' ? raw.trim() : raw.replace(/[\s-]/g, '');
    if (value !== '') fields[name] = value;
  }
  if (kind === 'stripe' && !fields.payment_method) {
    throw ApiError.badRequest('The card could not be read: enter it again (your browser must allow Stripe.js).');
  }
  return { kind, fields };
}
