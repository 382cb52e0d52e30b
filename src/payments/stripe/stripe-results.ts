import Decimal from 'decimal.js';
import Stripe from 'stripe';
import { fitsCurrency, notInUnitMessage, WHOLE_UNIT_CURRENCIES } from '../currency-units';
import { GatewayResult, TokenDetails } from '../payment-gateway';

/** Merchant-facing codes (`gateway_err_code`) for Stripe's error codes, as the test gateway numbers them. */
const ERR_CODES: Readonly<Record<string, number>> = {
  card_declined: 2,
  insufficient_funds: 3,
  expired_card: 4,
  incorrect_cvc: 6,
  incorrect_number: 7,
  authentication_required: 8,
  processing_error: 500,
  // A PaymentIntent left without a decline reason (stripe-mock's answer) or canceled.
  requires_payment_method: 2,
  requires_confirmation: 2,
  canceled: 2,
};

/** Stripe's three-decimal currencies: amounts in thousandths (https://docs.stripe.com/currencies#three-decimal). */
const THREE_DECIMAL: ReadonlySet<string> = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/**
 * Stripe's integer amount per unit of `currency`: 1 for its zero-decimal currencies, 1000
 * for its three-decimal ones, 100 for the rest, ISK included (whole krónur, but still
 * written in hundredths in Stripe's API: "special cases").
 */
function stripeScale(currency: string): number {
  const code = currency.toUpperCase();
  if (code !== 'ISK' && WHOLE_UNIT_CURRENCIES.has(code)) return 1;
  return THREE_DECIMAL.has(code) ? 1000 : 100;
}

/**
 * The amount as Stripe takes it: an integer in the currency's smallest unit, exact
 * (123.45 EUR → 12345, 1234 JPY → 1234, 5.12 KWD → 5120). The port refuses an amount that
 * does not fit first; this never rounds either.
 */
export function toStripeAmount(amount: Decimal, currency: string): number {
  const units = amount.times(stripeScale(currency));
  if (!units.isInteger() || !fitsCurrency(amount, currency)) throw new Error(notInUnitMessage(amount, currency));
  return units.toNumber();
}

/** Stripe's integer amount in `currency` (its lower-case code, as in its objects) as an exact amount. */
export function fromStripeAmount(units: number, currency: string): Decimal {
  return new Decimal(units).dividedBy(stripeScale(currency));
}

export function succeeded(transid: string): GatewayResult {
  return { outcome: 'success', transid, message: '', errCode: 0, errDetail: '' };
}

function pending(transid: string): GatewayResult {
  return { outcome: 'pending', transid, message: '', errCode: 0, errDetail: '' };
}

/** Where a PaymentIntent's answer is read. */
export interface IntentReading {
  /**
   * Nobody can authenticate now (an off-session charge, or an attempt found again after a
   * crash: its payer never got the secret): a PaymentIntent waiting for 3-D Secure is a
   * failure, paid from the invoice's pay link. Otherwise it is pending for the payer.
   */
  offSession: boolean;
}

/**
 * What a PaymentIntent's status says of its charge, every status of Stripe's API named
 * (https://docs.stripe.com/payments/paymentintents/lifecycle). A charge here is created
 * with `confirm: true`, so a status that still waits for a method or a confirmation has
 * moved no money and will not move any by itself: it fails with the reason Stripe gave, or
 * a plain one when it gave none (what stripe-mock's fixtures answer).
 */
export function resultOfIntent(intent: Stripe.PaymentIntent, reading: IntentReading): GatewayResult {
  const id = intent.id;
  switch (intent.status) {
    case 'succeeded':
      return succeeded(id);
    case 'processing':
      // Bank debits: days until Stripe's webhook (or the settlement job's question) tells.
      return pending(id);
    case 'requires_capture':
      // Authorized, not captured (charges here capture at once): held until Stripe says how it ended.
      return pending(id);
    case 'requires_action':
      if (reading.offSession) {
        return declinedBy(
          id,
          'Your bank asks you to confirm this payment (3-D Secure): pay it from the payment link.',
          'authentication_required',
        );
      }
      // 3-D Secure on a hosted page: Stripe.js confirms with this secret; the webhook says how it ended.
      return {
        ...pending(id),
        message: 'Your bank asks you to confirm this payment.',
        errDetail: 'requires_action',
        clientSecret: intent.client_secret ?? undefined,
      };
    case 'requires_payment_method': {
      const failure = intent.last_payment_error;
      if (failure) {
        return declinedBy(
          id,
          failure.message ?? 'Your card was declined.',
          failure.decline_code ?? failure.code ?? 'card_declined',
        );
      }
      return declinedBy(
        id,
        'The payment was not completed: the payment method was not accepted.',
        'requires_payment_method',
      );
    }
    case 'requires_confirmation':
      return declinedBy(id, 'The payment was not completed: it was not confirmed.', 'requires_confirmation');
    case 'canceled':
      return declinedBy(id, 'The payment was canceled.', 'canceled');
    default: {
      // A status newer than this code: money may have moved, so it is held until Stripe says how it ended.
      const unknown: string = intent.status;
      return { ...pending(id), errDetail: `status_${unknown}`.slice(0, 64) };
    }
  }
}

/** A decline Stripe answered with a card error (HTTP 402). */
export function resultOfCardError(error: Stripe.errors.StripeCardError): GatewayResult {
  const intent = (error.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
  return declinedBy(
    intent?.id ?? '',
    error.message || 'Your card was declined.',
    error.decline_code ?? error.code ?? 'card_declined',
  );
}

/** Stripe refused the request itself (a bad or detached payment method, ...): the charge failed. */
export function resultOfRequestError(error: Stripe.errors.StripeError): GatewayResult {
  const detail = error.code ?? error.type;
  return {
    outcome: 'error',
    transid: '',
    message: error.message,
    errCode: ERR_CODES[detail] ?? 400,
    errDetail: detail,
  };
}

function declinedBy(transid: string, message: string, detail: string): GatewayResult {
  return { outcome: 'declined', transid, message, errCode: ERR_CODES[detail] ?? 2, errDetail: detail };
}

/** What a PaymentMethod says of itself (brand, last 4, expiry), without its number. */
export function detailsOf(method: Stripe.PaymentMethod): TokenDetails {
  if (method.type === 'us_bank_account' && method.us_bank_account) {
    const bank = method.us_bank_account;
    return { kind: 'ach', brand: bank.bank_name, last4: bank.last4, expYear: null, expMonth: null };
  }
  const card = method.card;
  return {
    kind: 'card',
    brand: card?.brand ?? null,
    last4: card?.last4 ?? null,
    expYear: card?.exp_year ?? null,
    expMonth: card?.exp_month ?? null,
  };
}
