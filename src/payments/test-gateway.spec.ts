import { Clock } from 'src/core/clock/clock';
import { outsideUnit } from 'src/database/outside-call-guard';
import { Money } from 'src/core/money/decimal';
import { TestGateway } from './test-gateway';

/** These calls run outside any unit of work. */
const OUTSIDE = outsideUnit('a test gateway call');

describe('TestGateway', () => {
  const clock = new Clock();
  clock.set(new Date('2026-11-19T15:00:00Z'));
  const gateway = new TestGateway(clock);
  const amount = new Money('10.00');
  let references = 0;
  const reference = (): string => `attempt-${++references}`;

  async function chargeCard(number: string, expYear = 2030, expMonth = 1) {
    const gatewayToken = await gateway.tokenizeCard(OUTSIDE, { number, expYear, expMonth });
    expect(gatewayToken).not.toContain(number);
    return gateway.charge(OUTSIDE, { kind: 'card', gatewayToken, expYear, expMonth }, amount, 'USD', reference());
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
      const gatewayToken = await gateway.tokenizeBankAccount(OUTSIDE, { number, routing: '110000000' });
      const charged = await gateway.charge(OUTSIDE, { kind: 'ach', gatewayToken }, amount, 'USD', reference());
      expect(charged.outcome).toBe('pending');
      expect(await gateway.settle(OUTSIDE, { kind: 'ach', gatewayToken }, charged.transid)).toMatchObject({
        outcome,
        message,
      });
    }
  });

  it('vault tokens of other gateways charge successfully; refunds and voids succeed', async () => {
    expect(
      (
        await gateway.charge(
          OUTSIDE,
          { kind: 'tokenized', gatewayToken: 'cus_1CoGUjtUMyLIDR' },
          amount,
          'USD',
          reference(),
        )
      ).outcome,
    ).toBe('success');
    expect((await gateway.refund(OUTSIDE, 'TEST-x', amount, 'USD', reference())).outcome).toBe('success');
    expect((await gateway.void(OUTSIDE, 'TEST-x')).outcome).toBe('success');
  });

  it('answers a repeated reference with the first result and moves the money once; lookup tells what it did', async () => {
    const gatewayToken = await gateway.tokenizeCard(OUTSIDE, {
      number: '4242424242424242',
      expYear: 2030,
      expMonth: 1,
    });
    const source = { kind: 'card', gatewayToken, expYear: 2030, expMonth: 1 } as const;
    expect(await gateway.lookup(OUTSIDE, 'charge-once')).toBeNull();
    const first = await gateway.charge(OUTSIDE, source, amount, 'USD', 'charge-once');
    expect(await gateway.charge(OUTSIDE, source, new Money('99.00'), 'USD', 'charge-once')).toEqual(first);
    expect(await gateway.lookup(OUTSIDE, 'charge-once')).toEqual(first);
    const kept = gateway.records().filter((r) => r.reference === 'charge-once');
    expect(kept.map((r) => [r.kind, r.amount.toFixed(2), r.currency, r.result.outcome])).toEqual([
      ['charge', '10.00', 'USD', 'success'],
    ]);
  });

  it('takes the currency it is given and refuses, for every gateway, an amount that is not whole in it', async () => {
    const source = { kind: 'tokenized', gatewayToken: 'tok_x' } as const;
    expect((await gateway.charge(OUTSIDE, source, new Money('1234'), 'JPY', 'yen-whole')).outcome).toBe('success');
    const fraction = await gateway.charge(OUTSIDE, source, new Money('1234.50'), 'JPY', 'yen-fraction');
    expect(fraction).toMatchObject({ outcome: 'error', errCode: 400, errDetail: 'amount_not_in_currency_unit' });
    expect(fraction.message).toContain('1234.50 JPY is not a whole number');
    expect((await gateway.refund(OUTSIDE, 'TEST-x', new Money('0.50'), 'KRW', 'won-fraction')).outcome).toBe('error');
    // Nothing reached the gateway for the refused ones.
    expect(gateway.records().filter((r) => r.reference.endsWith('-fraction'))).toEqual([]);
    expect(gateway.records().find((r) => r.reference === 'yen-whole')?.currency).toBe('JPY');
  });
});
