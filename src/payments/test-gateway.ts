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

/**
 * The built-in gateway. Tokens carry the scenario the number stood for
 * (`tgw_card_declined_<random>`), so behaviour survives without keeping the number.
 */
@Injectable()
export class TestGateway extends PaymentGateway {
  readonly identity: GatewayIdentity = { gatewayId: 1, gatewayType: 'test', nickname: 'Test Gateway' };

  constructor(private readonly clock: Clock) {
    super();
  }

  tokenizeCard(card: CardInput): Promise<string> {
    return Promise.resolve(`tgw_card_${CARD_SCENARIOS[card.number] ?? 'ok'}_${randomToken()}`);
  }

  tokenizeBankAccount(account: BankAccountInput): Promise<string> {
    return Promise.resolve(`tgw_ach_${BANK_SCENARIOS[account.number] ?? 'ok'}_${randomToken()}`);
  }

  charge(source: ChargeSource, _amount: Decimal): Promise<GatewayResult> {
    const transid = this.transid();
    if (source.kind === 'ach') {
      // Bank payments have no real-time answer: pending until settled.
      return Promise.resolve({ outcome: 'pending', transid, message: '', errCode: 0, errDetail: '' });
    }
    const scenario = scenarioOf(source.gatewayToken);
    if (scenario !== 'ok' && scenario !== 'returned') return Promise.resolve({ ...FAILURES[scenario], transid });
    if (source.kind === 'card' && isCardExpired(source.expYear, source.expMonth, this.clock.now())) {
      return Promise.resolve({ ...FAILURES.expired, transid });
    }
    return Promise.resolve(success(transid));
  }

  refund(_transid: string, _amount: Decimal): Promise<GatewayResult> {
    return Promise.resolve(success(this.transid()));
  }

  void(transid: string): Promise<GatewayResult> {
    return Promise.resolve(success(transid));
  }

  settle(source: ChargeSource, transid: string): Promise<GatewayResult> {
    const scenario = scenarioOf(source.gatewayToken);
    if (scenario === 'returned') return Promise.resolve({ ...FAILURES.returned, transid });
    if (scenario === 'nsf') return Promise.resolve({ ...BANK_NSF, transid });
    return Promise.resolve(success(transid));
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
