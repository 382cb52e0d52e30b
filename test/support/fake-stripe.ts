import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { Json } from './json';

export const STRIPE_WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';

/** The environment of a server that charges through the fake Stripe. */
export function stripeEnv(fake: FakeStripe): Record<string, string> {
  return {
    PAYMENT_GATEWAY: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_billing_0123456789',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_billing_0123456789',
    STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: fake.url,
  };
}

/** One request the SDK sent, as the fake received it. */
export interface StripeRequest {
  method: string;
  path: string;
  /** The form-encoded body, flat (`card[number]`, `metadata[reference]`), and the raw text. */
  form: Record<string, string>;
  raw: string;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

interface FakeMethod {
  id: string;
  object: 'payment_method';
  type: 'card' | 'us_bank_account';
  customer: string | null;
  card?: { brand: string; last4: string; exp_month: number; exp_year: number };
  us_bank_account?: { bank_name: string; last4: string; routing_number: string };
  /** What a charge on it does (by Stripe's test card numbers). */
  scenario: Scenario;
}

type Scenario = 'ok' | 'declined' | 'insufficient_funds' | 'authentication_required' | 'bank';

/** Stripe's own test cards (https://docs.stripe.com/testing). */
const CARD_SCENARIOS: Readonly<Record<string, Scenario>> = {
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  '4000002760003184': 'authentication_required',
};

const BRANDS: ReadonlyArray<[RegExp, string]> = [
  [/^4/, 'visa'],
  [/^5[1-5]/, 'mastercard'],
  [/^3[47]/, 'amex'],
  [/^6011/, 'discover'],
];

/**
 * A small Stripe-compatible HTTP server for the tests (the parts the gateway uses:
 * customers, payment methods, payment intents with search, refunds). It records every
 * request (form body, Idempotency-Key, Authorization) and answers a repeated
 * Idempotency-Key with the first answer, as Stripe does.
 */
export class FakeStripe {
  readonly requests: StripeRequest[] = [];
  /** When set, raw card numbers are refused as Stripe refuses them for most accounts. */
  refuseRawCards = false;
  /** When set, PaymentIntent search answers 404 (Stripe-compatible servers without search). */
  withoutSearch = false;
  /**
   * When set, every new PaymentIntent answers with this status and no `last_payment_error`
   * whatever its card (what stripe-mock's fixtures answer to a confirmed PaymentIntent).
   */
  intentStatus: string | null = null;
  /** Told of every request as it arrives (the standalone server prints them). */
  onRequest: ((request: StripeRequest) => void) | null = null;
  readonly customers = new Map<string, Json>();
  readonly methods = new Map<string, FakeMethod>();
  readonly intents = new Map<string, Json>();
  readonly refunds = new Map<string, Json>();
  private readonly replies = new Map<string, { status: number; body: Json }>();
  private server!: Server;
  url = '';

  /** Listens on 127.0.0.1 at `port` (0: any free port). */
  static async start(port = 0): Promise<FakeStripe> {
    const fake = new FakeStripe();
    fake.server = createServer((req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => fake.server.listen(port, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // The SDK keeps its connections alive: end them, or close waits for them.
    this.server.closeAllConnections();
    return closed;
  }

  /** Requests to a path (`/v1/payment_intents`), by method. */
  sent(method: string, path: string | RegExp): StripeRequest[] {
    return this.requests.filter(
      (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
    );
  }

  /** What Stripe.js would make in the browser: a PaymentMethod the server never saw the number of. */
  clientMethod(number = '4242424242424242', expYear = 2030, expMonth = 12): string {
    return this.newCard(number, expYear, expMonth).id;
  }

  /** A bank account tokenized by Stripe.js (Financial Connections). */
  clientBankAccount(last4 = '6789'): string {
    const method: FakeMethod = {
      id: this.id('pm'),
      object: 'payment_method',
      type: 'us_bank_account',
      customer: null,
      us_bank_account: { bank_name: 'STRIPE TEST BANK', last4, routing_number: '110000000' },
      scenario: 'bank',
    };
    this.methods.set(method.id, method);
    return method.id;
  }

  /** What the payer's confirmation (3-D Secure) or the bank's settlement does to an intent. */
  setIntentStatus(id: string, status: string): Json {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`no PaymentIntent ${id}`);
    intent.status = status;
    if (status === 'succeeded') intent.last_payment_error = null;
    return intent;
  }

  /** A webhook event as Stripe sends it, with its `Stripe-Signature` header for `secret`. */
  event(type: string, object: Json, secret: string, id = this.id('evt')): { body: string; signature: string } {
    const body = JSON.stringify({
      id,
      object: 'event',
      type,
      api_version: '2025-01-27',
      created: Math.floor(Date.now() / 1000),
      data: { object },
    });
    const signature = new Stripe('sk_test_fake').webhooks.generateTestHeaderString({ payload: body, secret });
    return { body, signature };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : raw));
    const request: StripeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      form,
      raw,
      contentType: req.headers['content-type'],
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      authorization: req.headers.authorization,
    };
    this.requests.push(request);
    this.onRequest?.(request);
    if (!/^Bearer sk_test_/.test(request.authorization ?? '')) {
      return send(res, 401, stripeError('invalid_request_error', 'Invalid API Key provided.'));
    }
    const replayKey = request.idempotencyKey && `${request.method} ${request.path} ${request.idempotencyKey}`;
    const earlier = replayKey ? this.replies.get(replayKey) : undefined;
    if (earlier) return send(res, earlier.status, earlier.body, { 'Idempotent-Replayed': 'true' });
    const [status, body] = this.route(request);
    if (replayKey && request.method === 'POST') this.replies.set(replayKey, { status, body });
    send(res, status, body);
  }

  private route(r: StripeRequest): [number, Json] {
    const parts = r.path.split('/').filter(Boolean);
    const f = r.form;
    if (r.method === 'POST' && r.path === '/v1/customers') {
      const customer = { id: this.id('cus'), object: 'customer', name: f.name ?? null, email: f.email ?? null };
      this.customers.set(customer.id, customer);
      return [200, customer];
    }
    if (r.method === 'POST' && r.path === '/v1/payment_methods') return this.createMethod(f);
    if (r.method === 'POST' && parts[1] === 'payment_methods' && parts[3] === 'attach') {
      const method = this.methods.get(parts[2]);
      if (!method) return [404, stripeError('invalid_request_error', `No such PaymentMethod: '${parts[2]}'`)];
      if (!this.customers.has(f.customer)) return [404, stripeError('invalid_request_error', 'No such customer')];
      if (method.customer && method.customer !== f.customer) {
        return [400, stripeError('invalid_request_error', 'The payment method is attached to another customer.')];
      }
      method.customer = f.customer;
      return [200, publicMethod(method)];
    }
    if (r.method === 'POST' && r.path === '/v1/payment_intents') return this.createIntent(f);
    if (r.method === 'GET' && r.path === '/v1/payment_intents') {
      const data = [...this.intents.values()].reverse();
      return [200, { object: 'list', data, has_more: false, url: '/v1/payment_intents' }];
    }
    if (r.method === 'GET' && r.path === '/v1/payment_intents/search' && this.withoutSearch) {
      return [404, stripeError('invalid_request_error', 'Unrecognized request URL (GET: /v1/payment_intents/search)')];
    }
    if (r.method === 'GET' && r.path === '/v1/payment_intents/search') {
      const wanted = /metadata\['reference'\]:'([^']*)'/.exec(f.query ?? '')?.[1];
      const data = [...this.intents.values()].filter((i) => (i.metadata as Json).reference === wanted);
      return [200, { object: 'search_result', data, has_more: false, url: '/v1/payment_intents/search' }];
    }
    if (parts[1] === 'payment_intents' && parts[2]) {
      const intent = this.intents.get(parts[2]);
      if (!intent) return [404, stripeError('invalid_request_error', `No such payment_intent: '${parts[2]}'`)];
      if (r.method === 'POST' && parts[3] === 'cancel') {
        if (!CANCELABLE.includes(intent.status as string)) {
          const message = `You cannot cancel this PaymentIntent because it has a status of ${intent.status as string}.`;
          return [400, stripeError('invalid_request_error', message, 'payment_intent_unexpected_state')];
        }
        intent.status = 'canceled';
      }
      return [200, intent];
    }
    if (r.method === 'POST' && r.path === '/v1/refunds') return this.createRefund(f);
    if (r.method === 'GET' && r.path === '/v1/refunds') {
      const data = [...this.refunds.values()].reverse();
      return [200, { object: 'list', data, has_more: false, url: '/v1/refunds' }];
    }
    return [404, stripeError('invalid_request_error', `Unrecognized request URL (${r.method}: ${r.path})`)];
  }

  private createMethod(f: Record<string, string>): [number, Json] {
    if (f.type === 'card') {
      if (this.refuseRawCards) {
        return [
          400,
          stripeError(
            'invalid_request_error',
            'Sending credit card numbers directly to the Stripe API is generally unsafe. ' +
              'To continue processing use Stripe.js, the Stripe mobile bindings, or Stripe Elements.',
          ),
        ];
      }
      return [
        200,
        publicMethod(this.newCard(f['card[number]'], Number(f['card[exp_year]']), Number(f['card[exp_month]']))),
      ];
    }
    const method: FakeMethod = {
      id: this.id('pm'),
      object: 'payment_method',
      type: 'us_bank_account',
      customer: null,
      us_bank_account: {
        bank_name: 'STRIPE TEST BANK',
        last4: (f['us_bank_account[account_number]'] ?? '').slice(-4),
        routing_number: f['us_bank_account[routing_number]'] ?? '',
      },
      scenario: 'bank',
    };
    this.methods.set(method.id, method);
    return [200, publicMethod(method)];
  }

  /** As Stripe: an amount in the PaymentIntent's smallest unit, never more than is left unrefunded. */
  private createRefund(f: Record<string, string>): [number, Json] {
    const intent = this.intents.get(f.payment_intent);
    if (!intent) return [404, stripeError('invalid_request_error', `No such payment_intent: '${f.payment_intent}'`)];
    if (intent.status !== 'succeeded') {
      return [
        400,
        stripeError('invalid_request_error', 'This PaymentIntent does not have a successful charge to refund.'),
      ];
    }
    const refunded = [...this.refunds.values()]
      .filter((r) => r.payment_intent === intent.id)
      .reduce((sum, r) => sum + (r.amount as number), 0);
    const amount = f.amount === undefined ? (intent.amount as number) - refunded : Number(f.amount);
    const invalid = amountProblem(f.amount ?? String(amount), intent.currency as string);
    if (invalid) return [400, stripeError('invalid_request_error', invalid, 'amount_invalid')];
    if (amount + refunded > (intent.amount as number)) {
      return [
        400,
        stripeError(
          'invalid_request_error',
          `Refund amount (${amount}) is greater than unrefunded amount on charge (${(intent.amount as number) - refunded})`,
          'amount_too_large',
        ),
      ];
    }
    const refund = {
      id: this.id('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      status: 'succeeded',
      metadata: metadataOf(f),
    };
    this.refunds.set(refund.id, refund);
    return [200, refund];
  }

  private createIntent(f: Record<string, string>): [number, Json] {
    const invalid = amountProblem(f.amount, f.currency);
    if (invalid) return [400, stripeError('invalid_request_error', invalid, 'parameter_invalid')];
    const method = this.methods.get(f.payment_method);
    if (!method)
      return [
        400,
        stripeError('invalid_request_error', `No such PaymentMethod: '${f.payment_method}'`, 'resource_missing'),
      ];
    if (method.customer !== (f.customer ?? null)) {
      return [400, stripeError('invalid_request_error', 'The PaymentMethod does not belong to the Customer.')];
    }
    const intent: Json = {
      id: this.id('pi'),
      object: 'payment_intent',
      amount: Number(f.amount),
      currency: f.currency,
      customer: f.customer ?? null,
      payment_method: method.id,
      metadata: metadataOf(f),
      client_secret: `pi_secret_${randomBytes(6).toString('hex')}`,
      last_payment_error: null,
      status: 'succeeded',
    };
    this.intents.set(intent.id as string, intent);
    if (this.intentStatus) {
      intent.status = this.intentStatus;
      return [200, intent];
    }
    const offSession = f.off_session === 'true';
    switch (method.scenario) {
      case 'bank':
        intent.status = 'processing';
        return [200, intent];
      case 'authentication_required':
        if (!offSession) {
          intent.status = 'requires_action';
          return [200, intent];
        }
        return this.decline(
          intent,
          'authentication_required',
          'authentication_required',
          'This payment requires authentication.',
        );
      case 'declined':
        return this.decline(intent, 'card_declined', 'generic_decline', 'Your card was declined.');
      case 'insufficient_funds':
        return this.decline(intent, 'card_declined', 'insufficient_funds', 'Your card has insufficient funds.');
      default:
        return [200, intent];
    }
  }

  private decline(intent: Json, code: string, declineCode: string, message: string): [number, Json] {
    const failure = { type: 'card_error', code, decline_code: declineCode, message };
    intent.status = 'requires_payment_method';
    intent.last_payment_error = failure;
    return [402, { error: { ...failure, payment_intent: intent } }];
  }

  private newCard(number: string, expYear: number, expMonth: number): FakeMethod {
    const method: FakeMethod = {
      id: this.id('pm'),
      object: 'payment_method',
      type: 'card',
      customer: null,
      card: {
        brand: BRANDS.find(([re]) => re.test(number))?.[1] ?? 'unknown',
        last4: number.slice(-4),
        exp_month: expMonth,
        exp_year: expYear,
      },
      scenario: CARD_SCENARIOS[number] ?? 'ok',
    };
    this.methods.set(method.id, method);
    return method;
  }

  private id(prefix: string): string {
    return `${prefix}_${randomBytes(8).toString('hex')}`;
  }
}

/** The statuses Stripe lets a PaymentIntent be canceled from. */
const CANCELABLE = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action'];

/** Stripe's three-decimal currencies: their amounts end in 0 (https://docs.stripe.com/currencies#three-decimal). */
const THREE_DECIMAL = ['bhd', 'jod', 'kwd', 'omr', 'tnd'];

/** What Stripe says of an amount and currency it refuses; null when they are good. */
function amountProblem(amount: string | undefined, currency: string | undefined): string | null {
  if (!currency || !/^[a-z]{3}$/.test(currency)) return `Invalid currency: ${currency ?? '(missing)'}`;
  if (!amount || !/^[1-9]\d*$/.test(amount)) {
    return `Invalid integer: ${amount ?? '(missing)'} (amounts are integers in the smallest currency unit)`;
  }
  if (THREE_DECIMAL.includes(currency) && !amount.endsWith('0'))
    return 'Amounts in three-decimal currencies must end in 0.';
  return null;
}

function publicMethod(method: FakeMethod): Json {
  const { scenario: _scenario, ...rest } = method;
  return rest;
}

function metadataOf(form: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
    if (name) metadata[name] = value;
  }
  return metadata;
}

function stripeError(type: string, message: string, code?: string): Json {
  return { error: { type, message, ...(code && { code }) } };
}

function send(res: ServerResponse, status: number, body: Json, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Request-Id': `req_${randomBytes(6).toString('hex')}`,
    ...headers,
  });
  res.end(JSON.stringify(body));
}
