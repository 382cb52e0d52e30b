import Decimal from 'decimal.js';

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
 */
export abstract class PaymentGateway {
  abstract readonly identity: GatewayIdentity;
  abstract tokenizeCard(card: CardInput): Promise<string>;
  abstract tokenizeBankAccount(account: BankAccountInput): Promise<string>;
  abstract charge(source: ChargeSource, amount: Decimal): Promise<GatewayResult>;
  abstract refund(transid: string, amount: Decimal): Promise<GatewayResult>;
  abstract void(transid: string): Promise<GatewayResult>;
  /** Final answer for a pending bank payment: `success` (funds collected) or `declined` (returned). */
  abstract settle(source: ChargeSource, transid: string): Promise<GatewayResult>;
}
