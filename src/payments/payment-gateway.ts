import Decimal from 'decimal.js';
import { assertOutsideUnitOfWork } from 'src/database/outside-call-guard';

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
 * Every call is made outside any unit of work (each method checks it): money is moved
 * only after a committed payment attempt records the intent, and recorded after in
 * another unit. A charge or refund carries the attempt's `reference`: the gateway treats
 * a repeat of a reference as the same request (idempotency key) and answers `lookup`
 * with what it did for it, so an attempt left pending by a crash can be resolved.
 */
export abstract class PaymentGateway {
  abstract readonly identity: GatewayIdentity;

  tokenizeCard(card: CardInput): Promise<string> {
    assertOutsideUnitOfWork('gateway tokenizeCard');
    return this.submitTokenizeCard(card);
  }

  tokenizeBankAccount(account: BankAccountInput): Promise<string> {
    assertOutsideUnitOfWork('gateway tokenizeBankAccount');
    return this.submitTokenizeBankAccount(account);
  }

  charge(source: ChargeSource, amount: Decimal, reference: string): Promise<GatewayResult> {
    assertOutsideUnitOfWork('gateway charge');
    return this.submitCharge(source, amount, reference);
  }

  refund(transid: string, amount: Decimal, reference: string): Promise<GatewayResult> {
    assertOutsideUnitOfWork('gateway refund');
    return this.submitRefund(transid, amount, reference);
  }

  void(transid: string): Promise<GatewayResult> {
    assertOutsideUnitOfWork('gateway void');
    return this.submitVoid(transid);
  }

  /** Final answer for a pending bank payment: `success` (funds collected) or `declined` (returned). */
  settle(source: ChargeSource, transid: string): Promise<GatewayResult> {
    assertOutsideUnitOfWork('gateway settle');
    return this.submitSettle(source, transid);
  }

  /** What the gateway did for a charge or refund `reference`; null when it never received it. */
  lookup(reference: string): Promise<GatewayResult | null> {
    assertOutsideUnitOfWork('gateway lookup');
    return this.submitLookup(reference);
  }

  protected abstract submitTokenizeCard(card: CardInput): Promise<string>;
  protected abstract submitTokenizeBankAccount(account: BankAccountInput): Promise<string>;
  protected abstract submitCharge(source: ChargeSource, amount: Decimal, reference: string): Promise<GatewayResult>;
  protected abstract submitRefund(transid: string, amount: Decimal, reference: string): Promise<GatewayResult>;
  protected abstract submitVoid(transid: string): Promise<GatewayResult>;
  protected abstract submitSettle(source: ChargeSource, transid: string): Promise<GatewayResult>;
  protected abstract submitLookup(reference: string): Promise<GatewayResult | null>;
}
