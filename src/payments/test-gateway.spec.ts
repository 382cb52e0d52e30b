import { Clock } from 'src/core/clock/clock';
import { Money } from 'src/core/money/decimal';
import { TestGateway } from './test-gateway';

describe('TestGateway', () => {
  const clock = new Clock();
  clock.set(new Date('2026-11-19T15:00:00Z'));
  const gateway = new TestGateway(clock);
  const amount = new Money('10.00');
  let references = 0;
  const reference = (): string => `attempt-${++references}`;

  async function chargeCard(number: string, expYear = 2030, expMonth = 1) {
    const gatewayToken = await gateway.tokenizeCard({ number, expYear, expMonth });
    expect(gatewayToken).not.toContain(number);
    return gateway.charge({ kind: 'card', gatewayToken, expYear, expMonth }, amount, reference());
  }

  it.each([
    ['4242424242424242', 'success', '', 0],
    ['4000000000000002', 'declined', 'Your card was declined.', 2],
    ['4116196783374209', 'declined', 'Your card was declined.', 2],
    ['4000000000009995', 'declined', 'Your card has insufficient funds.', 3],
    ['4000000000000069', 'declined', 'Your card has expired.', 4],
    ['4000000000000119', 'error', 'An error occurred while processing your card. Try again in a little bit.', 500],
  ])('card %s: %s', async (number, outcome, message, errCode) => {
    expect(await chargeCard(number)).toMatchObject({ outcome, message, errCode });
  });

  it('declines a past expiry and accepts the current month', async () => {
    expect((await chargeCard('4242424242424242', 2026, 10)).message).toBe('Your card has expired.');
    expect((await chargeCard('4242424242424242', 2026, 11)).outcome).toBe('success');
  });

  it('bank payments are pending, then settle or fail by account', async () => {
    for (const [number, outcome, message] of [
      ['000123456789', 'success', ''],
      ['000111111116', 'declined', 'The bank returned the payment.'],
      ['000222222227', 'declined', 'The bank account has insufficient funds.'],
    ]) {
      const gatewayToken = await gateway.tokenizeBankAccount({ number, routing: '110000000' });
      const charged = await gateway.charge({ kind: 'ach', gatewayToken }, amount, reference());
      expect(charged.outcome).toBe('pending');
      expect(await gateway.settle({ kind: 'ach', gatewayToken }, charged.transid)).toMatchObject({ outcome, message });
    }
  });

  it('vault tokens of other gateways charge successfully; refunds and voids succeed', async () => {
    expect(
      (await gateway.charge({ kind: 'tokenized', gatewayToken: 'cus_1CoGUjtUMyLIDR' }, amount, reference())).outcome,
    ).toBe('success');
    expect((await gateway.refund('TEST-x', amount, reference())).outcome).toBe('success');
    expect((await gateway.void('TEST-x')).outcome).toBe('success');
  });

  it('answers a repeated reference with the first result and moves the money once; lookup tells what it did', async () => {
    const gatewayToken = await gateway.tokenizeCard({ number: '4242424242424242', expYear: 2030, expMonth: 1 });
    const source = { kind: 'card', gatewayToken, expYear: 2030, expMonth: 1 } as const;
    expect(await gateway.lookup('charge-once')).toBeNull();
    const first = await gateway.charge(source, amount, 'charge-once');
    expect(await gateway.charge(source, new Money('99.00'), 'charge-once')).toEqual(first);
    expect(await gateway.lookup('charge-once')).toEqual(first);
    const kept = gateway.records().filter((r) => r.reference === 'charge-once');
    expect(kept.map((r) => [r.kind, r.amount.toFixed(2), r.result.outcome])).toEqual([['charge', '10.00', 'success']]);
  });
});
