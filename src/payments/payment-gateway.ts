import Decimal from 'decimal.js';
import { OutcomeUnknown } from 'src/database/commit-outcome';
import { assertOutsideUnitOfWork, OutsideUnit } from 'src/database/outside-call-guard';
import { fitsCurrency, notInUnitMessage } from './currency-units';

/**
 * The gateway had not answered a charge when the request's deadline (REQUEST_TIMEOUT_MS)
 * came: the money may or may not have moved. Its attempt stays pending until the answer
 * comes, or the sweeper asks the gateway; either way it is recorded once.
 */
export class GatewayOutcomeUnknown extends OutcomeUnknown {
  readonly answer =
    'The payment gateway did not answer in time: the payment may or may not have been made, and is recorded once the gateway tells. Retry with the same Idempotency-Key to learn its outcome (without one, read the invoice or customer before retrying).';

  constructor(reference: string) {
    super(`Gateway charge ${reference} unanswered at the request's deadline`);
    this.name = 'GatewayOutcomeUnknown';
  }
}

/** What a charge draws on: a tokenized card (with its expiry), bank account or vault token. */
export type ChargeSource =
  | { kind: 'card'; gatewayToken: string; expYear: number; expMonth: number }
  | { kind: 'ach'; gatewayToken: string }
  | { kind: 'tokenized'; gatewayToken: string };

/**
 * A gateway's answer. `pending`: accepted, money not yet collected (bank payments);
 * `declined`: refused for the customer's reason; `error`: the gateway failed.
 */
export interface GatewayResult {
  outcome: 'success' | 'pending' | 'declined' | 'error';
  transid: string;
  /** Customer-facing message (`gateway_msg`); empty on success. */
  message: string;
  /** Merchant-facing code and detail (`gateway_err_code`, `gateway_err_detail`). */
  errCode: number;
  errDetail: string;
  /**
   * The payer must confirm the charge in the browser (3-D Secure): the gateway's
   * client-side library finishes it with this secret; the charge stays pending until the
   * gateway says how it ended.
   */
  clientSecret?: string;
}

/** Whose method or charge it is: a gateway that keeps customers keeps one per payer. */
export interface GatewayPayer {
  customerId: number;
  name?: string | null;
  email?: string | null;
}

/** What a charge needs besides its source and amount. */
export interface ChargeOptions {
  payer: GatewayPayer;
  /** Nobody is there to authenticate (automatic collection, API charges of a stored method). */
  offSession: boolean;
}

/** What the gateway knows of a token its own client-side library made (`POST /tokenized`). */
export interface TokenDetails {
  kind: 'card' | 'ach';
  /** The gateway's brand name (`visa`, `mastercard`, ...) or bank name. */
  brand: string | null;
  last4: string | null;
  expYear: number | null;
  expMonth: number | null;
}

/**
 * Card entry on hosted pages when the gateway collects the card itself (the number never
 * reaches this server); null: this server's own form.
 */
export interface ClientSideEntry {
  kind: 'stripe';
  scriptUrl: string;
  publishableKey: string;
}

/** A new card as sent by the client: it lives only in memory while the request runs. */
export interface CardInput {
  number: string;
  expYear: number;
  expMonth: number;
  cvv?: string;
}

export interface BankAccountInput {
  number: string;
  routing: string;
}

/** Who the gateway is, as shown on transactions. */
export interface GatewayIdentity {
  gatewayId: number;
  gatewayType: string;
  nickname: string;
}

/**
 * A payment gateway (DESIGN §6 "Test gateway": real gateways plug into the same
 * interface). Raw card and bank numbers are handed over only to be tokenized; every
 * later call works on the gateway's token.
 *
 * Every call is made outside any unit of work: each method takes the capability for it
 * (OutsideUnit, which a unit's body is never handed) and checks it at run time too. Money is moved
 * only after a committed payment attempt records the intent, and recorded after in
 * another unit. A charge or refund carries the attempt's `reference`: the gateway treats
 * a repeat of a reference as the same request (idempotency key) and answers `lookup`
 * with what it did for it, so an attempt left pending by a crash can be resolved.
 *
 * Money moves in a `currency` (ISO 4217, upper case, as the currency table has it): the
 * invoice's (or the payment's, for a refund). An amount that is not a whole number of the
 * currency's smallest unit (a fraction of a yen) is refused here for every gateway, never
 * rounded; callers refuse it earlier with a 400 (`assertFitsCurrency`).
 */
export abstract class PaymentGateway {
  abstract readonly identity: GatewayIdentity;
  /** How hosted pages take a card for this gateway (null: this server's own form). */
  readonly clientSide: ClientSideEntry | null = null;

  tokenizeCard(_outside: OutsideUnit, card: CardInput, payer?: GatewayPayer): Promise<string> {
    assertOutsideUnitOfWork('gateway tokenizeCard');
    return this.submitTokenizeCard(card, payer);
  }

  tokenizeBankAccount(_outside: OutsideUnit, account: BankAccountInput, payer?: GatewayPayer): Promise<string> {
    assertOutsideUnitOfWork('gateway tokenizeBankAccount');
    return this.submitTokenizeBankAccount(account, payer);
  }

  /**
   * A token made by the gateway's client-side library, taken into the payer's keeping
   * (attached to its gateway customer); what the gateway knows of it, or null for a
   * gateway that keeps tokens as sent.
   */
  adoptToken(_outside: OutsideUnit, token: string, payer: GatewayPayer): Promise<TokenDetails | null> {
    assertOutsideUnitOfWork('gateway adoptToken');
    return this.submitAdoptToken(token, payer);
  }

  charge(
    _outside: OutsideUnit,
    source: ChargeSource,
    amount: Decimal,
    currency: string,
    reference: string,
    options?: ChargeOptions,
  ): Promise<GatewayResult> {
    assertOutsideUnitOfWork('gateway charge');
    if (!fitsCurrency(amount, currency)) return Promise.resolve(notInUnit(amount, currency));
    return this.submitCharge(source, amount, currency, reference, options);
  }

  refund(
    _outside: OutsideUnit,
    transid: string,
    amount: Decimal,
    currency: string,
    reference: string,
  ): Promise<GatewayResult> {
    assertOutsideUnitOfWork('gateway refund');
    if (!fitsCurrency(amount, currency)) return Promise.resolve(notInUnit(amount, currency));
    return this.submitRefund(transid, amount, currency, reference);
  }

  void(_outside: OutsideUnit, transid: string): Promise<GatewayResult> {
    assertOutsideUnitOfWork('gateway void');
    return this.submitVoid(transid);
  }

  /** Final answer for a pending bank payment: `success` (funds collected) or `declined` (returned). */
  settle(_outside: OutsideUnit, source: ChargeSource, transid: string): Promise<GatewayResult> {
    assertOutsideUnitOfWork('gateway settle');
    return this.submitSettle(source, transid);
  }

  /** What the gateway did for a charge or refund `reference`; null when it never received it. */
  lookup(
    _outside: OutsideUnit,
    reference: string,
    kind: 'charge' | 'refund' = 'charge',
  ): Promise<GatewayResult | null> {
    assertOutsideUnitOfWork('gateway lookup');
    return this.submitLookup(reference, kind);
  }

  protected abstract submitTokenizeCard(card: CardInput, payer?: GatewayPayer): Promise<string>;
  protected abstract submitTokenizeBankAccount(account: BankAccountInput, payer?: GatewayPayer): Promise<string>;
  protected abstract submitCharge(
    source: ChargeSource,
    amount: Decimal,
    currency: string,
    reference: string,
    options?: ChargeOptions,
  ): Promise<GatewayResult>;

  protected submitAdoptToken(_token: string, _payer: GatewayPayer): Promise<TokenDetails | null> {
    return Promise.resolve(null);
  }

  protected abstract submitRefund(
    transid: string,
    amount: Decimal,
    currency: string,
    reference: string,
  ): Promise<GatewayResult>;
  protected abstract submitVoid(transid: string): Promise<GatewayResult>;
  protected abstract submitSettle(source: ChargeSource, transid: string): Promise<GatewayResult>;
  protected abstract submitLookup(reference: string, kind: 'charge' | 'refund'): Promise<GatewayResult | null>;
}

/** The answer to a charge or refund whose amount does not fit its currency: nothing was sent. */
function notInUnit(amount: Decimal, currency: string): GatewayResult {
  return {
    outcome: 'error',
    transid: '',
    message: notInUnitMessage(amount, currency),
    errCode: 400,
    errDetail: 'amount_not_in_currency_unit',
  };
}
