import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig, StripeConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { ApiError } from 'src/core/envelope/api-error';
import { lazyRequire } from 'src/core/lazy/lazy-require';
import {
  BankAccountInput,
  CardInput,
  ChargeOptions,
  ChargeSource,
  ClientSideEntry,
  GatewayIdentity,
  GatewayPayer,
  GatewayResult,
  PaymentGateway,
  TokenDetails,
} from '../payment-gateway';
import { StripeCustomer } from './stripe-customer.entity';
import {
  detailsOf,
  resultOfCardError,
  resultOfIntent,
  resultOfRequestError,
  succeeded,
  toStripeAmount,
} from './stripe-results';

/** The SDK, loaded by the Stripe gateway's construction only (PAYMENT_GATEWAY=stripe). */
const stripeSdk = lazyRequire<typeof Stripe>('stripe');

export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';
/** How many recent PaymentIntents a lookup reads where the server has no search. */
const LOOKUP_LIST_LIMIT = 1000;

/** A PaymentIntent that waits for its payer (a confirmation, a method) and will not move money by itself. */
function awaitsPayer(intent: Stripe.PaymentIntent): boolean {
  return ['requires_action', 'requires_confirmation', 'requires_payment_method'].includes(intent.status);
}

/** A Refund's answer: made (`succeeded`, or `pending` at the bank, which Stripe completes), or not. */
function resultOfRefund(refund: Stripe.Refund): GatewayResult {
  if (refund.status === 'failed' || refund.status === 'canceled') {
    const message = 'Stripe could not make the refund.';
    return { outcome: 'error', transid: refund.id, message, errCode: 500, errDetail: `refund_${refund.status}` };
  }
  return succeeded(refund.id);
}

/** The SDK pointed at Stripe, or at the Stripe-compatible server STRIPE_API_URL names. */
export function stripeClient(config: StripeConfig): Stripe {
  const url = config.apiUrl ? new URL(config.apiUrl) : null;
  const Sdk = stripeSdk();
  return new Sdk(config.secretKey, {
    // The attempt's reference is the idempotency key; the SDK's own retries reuse it.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(url && {
      host: url.hostname,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      protocol: url.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

/**
 * Stripe behind the gateway port (DESIGN §6 "Gateways"), with the official SDK. Each payer
 * gets one Stripe Customer; a method is a PaymentMethod (`pm_…`) attached to it; a charge
 * is one PaymentIntent whose idempotency key and `metadata.reference` are the payment
 * attempt's reference, so `lookup` finds it again; a refund is a Stripe Refund under the
 * refund attempt's reference.
 */
@Injectable()
export class StripeGateway extends PaymentGateway {
  readonly identity: GatewayIdentity = { gatewayId: 2, gatewayType: 'stripe', nickname: 'Stripe' };
  override readonly clientSide: ClientSideEntry;
  readonly stripe: Stripe;
  /** Keeps Customer-creation keys of two servers sharing one Stripe account apart. */
  private readonly keyScope: string;
  private readonly webhookSecret: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    super();
    const stripe = config.stripe;
    if (!stripe) throw new Error('PAYMENT_GATEWAY=stripe needs the STRIPE_* keys (DESIGN §3)');
    this.stripe = stripeClient(stripe);
    this.clientSide = { kind: 'stripe', scriptUrl: STRIPE_JS_URL, publishableKey: stripe.publishableKey };
    this.keyScope = new URL(config.publicUrl).host;
    this.webhookSecret = stripe.webhookSecret;
  }

  /** The event of a webhook delivery, if its `Stripe-Signature` is good for STRIPE_WEBHOOK_SECRET; throws otherwise. */
  verifyEvent(body: Buffer, signature: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(body, signature, this.webhookSecret);
  }

  /** What a PaymentIntent (in an event) says of its charge. */
  resultOf(intent: Stripe.PaymentIntent): GatewayResult {
    return resultOfIntent(intent, { offSession: false });
  }

  /** The payer's Stripe Customer, created once (under an idempotency key, so a race makes one). */
  async customerOf(payer: GatewayPayer): Promise<string> {
    const m = this.dataSource.manager;
    const known = await m.findOneBy(StripeCustomer, { customer_id: payer.customerId });
    if (known) return known.stripe_customer_id;
    const created = await this.call(() =>
      this.stripe.customers.create(
        {
          name: payer.name ?? undefined,
          email: payer.email ?? undefined,
          metadata: { customer_id: String(payer.customerId) },
        },
        { idempotencyKey: `customer-${this.keyScope}-${payer.customerId}` },
      ),
    );
    await m
      .createQueryBuilder()
      .insert()
      .into(StripeCustomer)
      .values({ customer_id: payer.customerId, stripe_customer_id: created.id, created_datetime: this.clock.now() })
      .orIgnore()
      .execute();
    return (await m.findOneByOrFail(StripeCustomer, { customer_id: payer.customerId })).stripe_customer_id;
  }

  protected async submitTokenizeCard(card: CardInput, payer?: GatewayPayer): Promise<string> {
    const method = await this.call(
      () =>
        this.stripe.paymentMethods.create({
          type: 'card',
          card: { number: card.number, exp_month: card.expMonth, exp_year: card.expYear, cvc: card.cvv },
        }),
      (error) =>
        error instanceof stripeSdk().errors.StripeCardError
          ? ApiError.badRequest(`Field "number": ${error.message}`)
          : ApiError.badRequest(
              `Stripe refused the card details (${error.message}). Collect the card with Stripe.js ` +
                'and send its PaymentMethod id (pm_…) to POST /tokenized instead.',
            ),
    );
    if (payer) await this.attach(method.id, payer, 'number');
    return method.id;
  }

  protected async submitTokenizeBankAccount(account: BankAccountInput, payer?: GatewayPayer): Promise<string> {
    const method = await this.call(
      () =>
        this.stripe.paymentMethods.create({
          type: 'us_bank_account',
          us_bank_account: {
            account_number: account.number,
            routing_number: account.routing,
            account_holder_type: 'individual',
          },
          billing_details: { name: payer?.name ?? 'Account holder' },
        }),
      (error) => ApiError.badRequest(`Field "number": ${error.message}`),
    );
    if (payer) await this.attach(method.id, payer, 'number');
    return method.id;
  }

  protected override async submitAdoptToken(token: string, payer: GatewayPayer): Promise<TokenDetails> {
    if (!/^pm_[A-Za-z0-9_]+$/.test(token)) {
      throw ApiError.badRequest('Field "token" must be a Stripe PaymentMethod id (pm_…) made by Stripe.js.');
    }
    return detailsOf(await this.attach(token, payer, 'token'));
  }

  protected async submitCharge(
    source: ChargeSource,
    amount: Decimal,
    currency: string,
    reference: string,
    options?: ChargeOptions,
  ): Promise<GatewayResult> {
    const customer = options ? await this.customerOf(options.payer) : undefined;
    const offSession = options?.offSession ?? true;
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: toStripeAmount(amount, currency),
          // Stripe takes the ISO code in lower case.
          currency: currency.toLowerCase(),
          customer,
          payment_method: source.gatewayToken,
          confirm: true,
          ...(offSession ? { off_session: true } : {}),
          // The PaymentMethod is given: no payment page, so no method that needs a redirect.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          metadata: { reference },
        },
        { idempotencyKey: reference },
      );
      return resultOfIntent(intent, { offSession });
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeCardError) return resultOfCardError(error);
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError) return resultOfRequestError(error);
      // No answer (network, Stripe's 5xx): the attempt stays pending for the sweeper's lookup.
      throw error;
    }
  }

  protected async submitRefund(
    transid: string,
    amount: Decimal,
    currency: string,
    reference: string,
  ): Promise<GatewayResult> {
    try {
      // The refund is in the PaymentIntent's currency; `currency` says how to write the amount.
      const refund = await this.stripe.refunds.create(
        { payment_intent: transid, amount: toStripeAmount(amount, currency), metadata: { reference } },
        { idempotencyKey: reference },
      );
      return resultOfRefund(refund);
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError) return resultOfRequestError(error);
      throw error;
    }
  }

  /** Cancels a charge that has not collected yet; Stripe refuses one that has succeeded or is under way. */
  protected async submitVoid(transid: string): Promise<GatewayResult> {
    try {
      const intent = await this.stripe.paymentIntents.cancel(transid);
      return intent.status === 'canceled' ? succeeded(intent.id) : resultOfIntent(intent, { offSession: true });
    } catch (error) {
      if (!(error instanceof stripeSdk().errors.StripeInvalidRequestError)) throw error;
      const message = 'Stripe cannot cancel it any more (it has succeeded or is being collected): refund it instead.';
      return { outcome: 'error', transid, message, errCode: 400, errDetail: error.code ?? 'not_cancelable' };
    }
  }

  /**
   * A pending charge (bank debit, 3-D Secure) as Stripe sees it on its settlement day. One
   * still waiting for its payer then (3-D Secure never confirmed) is canceled in Stripe, so
   * it can no longer take money, and fails: the invoice is owed again and dunning goes on.
   * A bank debit still processing stays pending until Stripe says otherwise.
   */
  protected async submitSettle(_source: ChargeSource, transid: string): Promise<GatewayResult> {
    const intent = await this.call(() => this.stripe.paymentIntents.retrieve(transid));
    if (!awaitsPayer(intent)) return resultOfIntent(intent, { offSession: false });
    // With nobody left to confirm it: the reason it failed (authentication required, a decline).
    const unconfirmed = resultOfIntent(intent, { offSession: true });
    const canceled = await this.submitVoid(transid);
    if (canceled.outcome === 'success') return unconfirmed;
    // Confirmed (or failed) in the meantime: what it is now.
    return resultOfIntent(await this.call(() => this.stripe.paymentIntents.retrieve(transid)), { offSession: false });
  }

  /**
   * What Stripe did for a charge's reference (its PaymentIntent) or a refund's (its
   * Refund). Only an object carrying the reference in its metadata counts: a
   * Stripe-compatible server may answer a search with anything.
   */
  protected async submitLookup(reference: string, kind: 'charge' | 'refund'): Promise<GatewayResult | null> {
    if (kind === 'refund') {
      const refund = await this.recent(this.stripe.refunds.list({ limit: 100 }), reference);
      return refund ? resultOfRefund(refund) : null;
    }
    const searched = await this.searchIntent(reference);
    const intent =
      searched === undefined ? await this.recent(this.stripe.paymentIntents.list({ limit: 100 }), reference) : searched;
    // Its payer never got the answer (the request died), so nobody can authenticate it.
    return intent ? resultOfIntent(intent, { offSession: true }) : null;
  }

  /** Stripe's search on `metadata.reference`; undefined where the server has no search (some Stripe-compatible ones). */
  private async searchIntent(reference: string): Promise<Stripe.PaymentIntent | null | undefined> {
    try {
      const query = `metadata['reference']:'${reference.replace(/'/g, '')}'`;
      const found = await this.stripe.paymentIntents.search({ query, limit: 10 });
      return found.data.find((intent) => intent.metadata?.reference === reference) ?? null;
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError) return undefined;
      throw error;
    }
  }

  /** The one of the most recent objects (a swept attempt is at most hours old) made under `reference`. */
  private async recent<T extends { metadata: Stripe.Metadata | null }>(
    list: AsyncIterable<T>,
    reference: string,
  ): Promise<T | null> {
    let read = 0;
    for await (const item of list) {
      if (item.metadata?.reference === reference) return item;
      if (++read >= LOOKUP_LIST_LIMIT) break;
    }
    return null;
  }

  private attach(method: string, payer: GatewayPayer, field: string): Promise<Stripe.PaymentMethod> {
    return this.customerOf(payer).then((customer) =>
      this.call(
        () => this.stripe.paymentMethods.attach(method, { customer }),
        (error) => ApiError.badRequest(`Field "${field}": ${error.message}`),
      ),
    );
  }

  /** A Stripe call; a refusal of the request (4xx) becomes `refused(error)` when given. */
  private async call<T>(run: () => Promise<T>, refused?: (error: Stripe.errors.StripeError) => Error): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (
        refused &&
        (error instanceof stripeSdk().errors.StripeCardError || error instanceof stripeSdk().errors.StripeInvalidRequestError)
      ) {
        throw refused(error);
      }
      throw error;
    }
  }
}
