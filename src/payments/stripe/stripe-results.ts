import Decimal from 'decimal.js';
import Stripe from 'stripe';
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
};

/** Amount in the currency's smallest unit (cents): amounts are exact to the cent (DESIGN §5). */
export function minorUnits(amount: Decimal): number {
  return amount.times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

export function succeeded(transid: string): GatewayResult {
  return { outcome: 'success', transid, message: '', errCode: 0, errDetail: '' };
}

/** What a PaymentIntent's status says about the charge. */
export function resultOfIntent(intent: Stripe.PaymentIntent): GatewayResult {
  switch (intent.status) {
    case 'succeeded':
      return succeeded(intent.id);
    case 'processing':
    case 'requires_capture':
    case 'requires_confirmation':
      return { outcome: 'pending', transid: intent.id, message: '', errCode: 0, errDetail: '' };
    case 'requires_action':
      // 3-D Secure: the payer confirms in the browser; Stripe's webhook says how it ended.
      return {
        outcome: 'pending',
        transid: intent.id,
        message: 'Your bank asks you to confirm this payment.',
        errCode: 0,
        errDetail: 'requires_action',
        clientSecret: intent.client_secret ?? undefined,
      };
    default: {
      const failure = intent.last_payment_error;
      return declinedBy(
        intent.id,
        failure?.message ?? 'Your card was declined.',
        failure?.decline_code ?? failure?.code ?? 'card_declined',
      );
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
