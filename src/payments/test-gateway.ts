import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { Clock } from 'src/core/clock/clock';
import { randomToken } from 'src/core/refs/random-token';
import { isCardExpired } from './card-expiry';
import {
  BankAccountInput,
  CardInput,
  ChargeSource,
  GatewayIdentity,
  GatewayResult,
  PaymentGateway,
} from './payment-gateway';

/** Scenarios the test gateway acts out (DESIGN §6 "Test gateway"). */
type Scenario = 'ok' | 'declined' | 'nsf' | 'expired' | 'error' | 'returned';

const CARD_SCENARIOS: Readonly<Record<string, Scenario>> = {
  '4000000000000002': 'declined',
  '4116196783374209': 'declined',
  '4000000000009995': 'nsf',
  '4000000000000069': 'expired',
  '4000000000000119': 'error',
};

const BANK_SCENARIOS: Readonly<Record<string, Scenario>> = {
  '000111111116': 'returned',
  '000222222227': 'nsf',
};

const FAILURES: Readonly<Record<Exclude<Scenario, 'ok'>, Omit<GatewayResult, 'transid'>>> = {
  declined: { outcome: 'declined', message: 'Your card was declined.', errCode: 2, errDetail: 'card_declined' },
  nsf: {
    outcome: 'declined',
    message: 'Your card has insufficient funds.',
    errCode: 3,
    errDetail: 'insufficient_funds',
  },
  expired: { outcome: 'declined', message: 'Your card has expired.', errCode: 4, errDetail: 'expired_card' },
  error: {
    outcome: 'error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
    errCode: 500,
    errDetail: 'processing_error',
  },
  returned: {
    outcome: 'declined',
    message: 'The bank returned the payment.',
    errCode: 5,
    errDetail: 'ach_returned',
  },
};

const BANK_NSF: Omit<GatewayResult, 'transid'> = {
  outcome: 'declined',
  message: 'The bank account has insufficient funds.',
  errCode: 3,
  errDetail: 'insufficient_funds',
};

/** What the test gateway did for one reference (a charge or a refund). */
export interface GatewayRecord {
  reference: string;
  kind: 'charge' | 'refund';
  amount: Decimal;
  /** ISO 4217 code, as the port was given it. */
  currency: string;
  result: GatewayResult;
}

/**
 * The built-in gateway. Tokens carry the scenario the number stood for
 * (`tgw_card_declined_<random>`), so behaviour survives without keeping the number.
 * It keeps what it did per reference (in memory, as a real gateway keeps its charges):
 * a repeated reference gets the first answer and moves no money again, and `lookup`
 * answers for it.
 */
@Injectable()
export class TestGateway extends PaymentGateway {
  readonly identity: GatewayIdentity = { gatewayId: 1, gatewayType: 'test', nickname: 'Test Gateway' };
  private readonly done = new Map<string, GatewayRecord>();

  constructor(private readonly clock: Clock) {
    super();
  }

  /** Every charge and refund received, in order (what a gateway's dashboard shows). */
  records(): GatewayRecord[] {
    return [...this.done.values()];
  }

  protected submitTokenizeCard(card: CardInput): Promise<string> {
    return Promise.resolve(`tgw_card_${CARD_SCENARIOS[card.number] ?? 'ok'}_${randomToken()}`);
  }

  protected submitTokenizeBankAccount(account: BankAccountInput): Promise<string> {
    return Promise.resolve(`tgw_ach_${BANK_SCENARIOS[account.number] ?? 'ok'}_${randomToken()}`);
  }

  protected submitCharge(
    source: ChargeSource,
    amount: Decimal,
    currency: string,
    reference: string,
  ): Promise<GatewayResult> {
    return this.once({ reference, kind: 'charge', amount, currency }, () => this.chargeResult(source));
  }

  protected submitRefund(
    _transid: string,
    amount: Decimal,
    currency: string,
    reference: string,
  ): Promise<GatewayResult> {
    return this.once({ reference, kind: 'refund', amount, currency }, () => success(this.transid()));
  }

  protected submitVoid(transid: string): Promise<GatewayResult> {
    return Promise.resolve(success(transid));
  }

  protected submitSettle(source: ChargeSource, transid: string): Promise<GatewayResult> {
    const scenario = scenarioOf(source.gatewayToken);
    if (scenario === 'returned') return Promise.resolve({ ...FAILURES.returned, transid });
    if (scenario === 'nsf') return Promise.resolve({ ...BANK_NSF, transid });
    return Promise.resolve(success(transid));
  }

  protected submitLookup(reference: string): Promise<GatewayResult | null> {
    return Promise.resolve(this.done.get(reference)?.result ?? null);
  }

  private once(request: Omit<GatewayRecord, 'result'>, act: () => GatewayResult): Promise<GatewayResult> {
    const earlier = this.done.get(request.reference);
    if (earlier) return Promise.resolve(earlier.result);
    const result = act();
    this.done.set(request.reference, { ...request, result });
    return Promise.resolve(result);
  }

  private chargeResult(source: ChargeSource): GatewayResult {
    const transid = this.transid();
    // Bank payments have no real-time answer: pending until settled.
    if (source.kind === 'ach') return { outcome: 'pending', transid, message: '', errCode: 0, errDetail: '' };
    const scenario = scenarioOf(source.gatewayToken);
    if (scenario !== 'ok' && scenario !== 'returned') return { ...FAILURES[scenario], transid };
    if (source.kind === 'card' && isCardExpired(source.expYear, source.expMonth, this.clock.now())) {
      return { ...FAILURES.expired, transid };
    }
    return success(transid);
  }

  private transid(): string {
    return `TEST-${randomToken()}`;
  }
}

function success(transid: string): GatewayResult {
  return { outcome: 'success', transid, message: '', errCode: 0, errDetail: '' };
}

function scenarioOf(gatewayToken: string): Scenario {
  const match = /^tgw_(?:card|ach)_([a-z]+)_/.exec(gatewayToken);
  const scenario = match?.[1];
  return scenario && (scenario === 'ok' || scenario in FAILURES) ? (scenario as Scenario) : 'ok';
}
