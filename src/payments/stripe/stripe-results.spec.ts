import Decimal from 'decimal.js';
import type Stripe from 'stripe';
import { fromStripeAmount, resultOfIntent, toStripeAmount } from './stripe-results';

/** A PaymentIntent as Stripe answers it, with only what the mapping reads. */
function intent(status: string, extra: Record<string, unknown> = {}): Stripe.PaymentIntent {
  return {
    id: 'pi_1',
    object: 'payment_intent',
    status,
    client_secret: 'pi_1_secret',
    last_payment_error: null,
    ...extra,
  } as unknown as Stripe.PaymentIntent;
}

const OFF = { offSession: true };
const ON = { offSession: false };

describe('Stripe amounts', () => {
  it.each([
    ['123.45', 'usd', 12345], // × 100
    ['123.45', 'EUR', 12345],
    ['1234', 'jpy', 1234], // zero-decimal: as is
    ['1234.00', 'KRW', 1234],
    ['5.12', 'kwd', 5120], // three-decimal: × 1000, last digit 0
    ['40', 'isk', 4000], // whole krónur, written in hundredths
  ])('%s %s is %d in the smallest unit', (amount, currency, units) => {
    expect(toStripeAmount(new Decimal(amount), currency)).toBe(units);
    expect(fromStripeAmount(units, currency).eq(amount)).toBe(true);
  });

  it.each([
    ['1234.50', 'jpy'],
    ['0.01', 'krw'],
    ['40.10', 'isk'],
    ['10.005', 'usd'],
  ])('refuses %s %s instead of rounding it', (amount, currency) => {
    expect(() => toStripeAmount(new Decimal(amount), currency)).toThrow('is not a whole number');
  });
});

describe('what a PaymentIntent status means', () => {
  it('succeeded: paid', () => {
    expect(resultOfIntent(intent('succeeded'), OFF)).toEqual({
      outcome: 'success',
      transid: 'pi_1',
      message: '',
      errCode: 0,
      errDetail: '',
    });
  });

  it.each(['processing', 'requires_capture'])('%s: pending until Stripe says how it ended', (status) => {
    expect(resultOfIntent(intent(status), OFF)).toMatchObject({ outcome: 'pending', transid: 'pi_1' });
  });

  it('requires_action off-session: the authentication-required failure the pay link resolves', () => {
    expect(resultOfIntent(intent('requires_action'), OFF)).toEqual({
      outcome: 'declined',
      transid: 'pi_1',
      message: 'Your bank asks you to confirm this payment (3-D Secure): pay it from the payment link.',
      errCode: 8,
      errDetail: 'authentication_required',
    });
  });

  it('requires_action with the payer on the page: pending, with the secret Stripe.js confirms with', () => {
    expect(resultOfIntent(intent('requires_action'), ON)).toMatchObject({
      outcome: 'pending',
      errDetail: 'requires_action',
      clientSecret: 'pi_1_secret',
    });
  });

  it('requires_payment_method with last_payment_error: a decline with its codes', () => {
    const failed = intent('requires_payment_method', {
      last_payment_error: {
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    });
    expect(resultOfIntent(failed, OFF)).toEqual({
      outcome: 'declined',
      transid: 'pi_1',
      message: 'Your card has insufficient funds.',
      errCode: 3,
      errDetail: 'insufficient_funds',
    });
    const coded = intent('requires_payment_method', {
      last_payment_error: { code: 'expired_card', message: 'Your card has expired.' },
    });
    expect(resultOfIntent(coded, OFF)).toMatchObject({ errCode: 4, errDetail: 'expired_card' });
  });

  it.each([
    ['requires_payment_method', 'The payment was not completed: the payment method was not accepted.'],
    ['requires_confirmation', 'The payment was not completed: it was not confirmed.'],
    ['canceled', 'The payment was canceled.'],
  ])('%s without an error: a decline saying so (no money moved)', (status, message) => {
    for (const reading of [OFF, ON]) {
      expect(resultOfIntent(intent(status), reading)).toEqual({
        outcome: 'declined',
        transid: 'pi_1',
        message,
        errCode: 2,
        errDetail: status,
      });
    }
  });

  it('a status newer than this code: held as pending, never released as failed', () => {
    expect(resultOfIntent(intent('requires_reauthorization'), OFF)).toMatchObject({
      outcome: 'pending',
      errDetail: 'status_requires_reauthorization',
    });
  });
});
