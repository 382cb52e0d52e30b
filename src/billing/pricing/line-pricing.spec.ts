import { Money } from 'src/core/money/decimal';
import { lineTax, priceAtRate, priceDiscount, priceLine, priceSetup } from './line-pricing';
import { PriceModel, PriceSheet, PriceTier } from './price-model';
import { tierProblem } from './tier-rules';

// Every expected value below is worked out by hand (in the comment beside it), never by the code under test.

const d = (v: string | number) => new Money(v);
const tier = (from: number, to: number | null, amount: string): PriceTier => ({
  unit_from: d(from),
  unit_to: to === null ? null : d(to),
  amount: d(amount),
});
/** 1-10 at 5.00, 11-20 at 4.00, 21 and up (open-ended) at 3.00. */
const TIERS = [tier(1, 10, '5.00'), tier(11, 20, '4.00'), tier(21, null, '3.00')];

function sheet(pricemodel: PriceModel, over: Partial<PriceSheet> = {}): PriceSheet {
  return { pricemodel, base: d(0), minimum: d(0), percent: d(0), tiers: TIERS, ...over };
}
const amount = (s: PriceSheet, q: string | number) => priceLine(s, d(q)).amount.toFixed(2);

describe('priceLine golden table', () => {
  it.each([
    // fla: base x quantity
    ['fla', '100.99', 0, '0.00'],
    ['fla', '100.99', 1, '100.99'],
    ['fla', '100.99', 3, '302.97'], // 100.99 * 3
    ['fla', '100.99', '2.5', '252.48'], // 252.475 -> half up
    ['fla', '0.125', 1, '0.13'], // 0.125 -> half up
    ['fla', '1.01', '0.5', '0.51'], // 0.505 -> half up
    ['fla', '0.124', 1, '0.12'], // 0.124 -> down
  ])('%s base %s quantity %s = %s', (model, base, q, expected) => {
    expect(amount(sheet(model as PriceModel, { base: d(base) }), q)).toBe(expected);
  });

  it.each([
    // uni: quantity x amount of the tier holding the quantity (base 0)
    [0, '0.00'], // falls in tier 1: 0 * 5
    [1, '5.00'],
    [10, '50.00'], // last unit of tier 1: 10 * 5
    [11, '44.00'], // first unit of tier 2: 11 * 4
    [20, '80.00'], // 20 * 4
    [21, '63.00'], // open tier: 21 * 3
    [100, '300.00'], // 100 * 3
    ['10.5', '42.00'], // 10.5 is past 10, so tier 2: 10.5 * 4
    ['0.333', '1.67'], // 0.333 * 5 = 1.665 -> half up
  ])('uni quantity %s = %s', (q, expected) => {
    expect(amount(sheet('uni'), q)).toBe(expected);
  });

  it.each([
    // vol: base 10 + quantity x the amount of the tier holding the total
    [0, '10.00'],
    [1, '15.00'], // 10 + 1 * 5
    [10, '60.00'], // 10 + 50
    [11, '54.00'], // 10 + 11 * 4
    [20, '90.00'], // 10 + 80
    [21, '73.00'], // 10 + 63
    ['20.5', '71.50'], // 10 + 20.5 * 3
  ])('vol base 10 quantity %s = %s', (q, expected) => {
    expect(amount(sheet('vol', { base: d(10) }), q)).toBe(expected);
  });

  it.each([
    // tie: graduated, each unit at the amount of the tier it falls in
    [0, '0.00'],
    [1, '5.00'],
    [10, '50.00'], // 10 * 5
    [11, '54.00'], // 50 + 1 * 4
    [20, '90.00'], // 50 + 10 * 4
    [21, '93.00'], // 90 + 1 * 3
    [25, '105.00'], // 90 + 5 * 3
    ['10.5', '52.00'], // 50 + 0.5 * 4
    ['0.25', '1.25'], // 0.25 * 5
  ])('tie quantity %s = %s', (q, expected) => {
    expect(amount(sheet('tie'), q)).toBe(expected);
  });

  it('tie adds the base and shows the average unit rate', () => {
    const price = priceLine(sheet('tie', { base: d('2.5') }), d(11));
    expect(price.amount.toFixed(2)).toBe('56.50'); // 2.5 + 50 + 4
    expect(price.rate.toFixed(6)).toBe('5.136364'); // 56.5 / 11 = 5.13636363...
  });

  it.each([
    [0, '0.00'],
    [7, '7.00'],
    ['12.345', '12.35'], // half up
    ['12.344', '12.34'],
  ])('pas quantity %s = %s', (q, expected) => {
    expect(amount(sheet('pas'), q)).toBe(expected);
  });

  it.each([
    // fla base 10, minimum 25
    [0, '25.00'],
    [1, '25.00'], // 10 < 25
    ['2.5', '25.00'], // 25 = 25
    [3, '30.00'], // 30 > 25
  ])('a minimum of 25 at fla 10 x %s = %s', (q, expected) => {
    expect(amount(sheet('fla', { base: d(10), minimum: d(25) }), q)).toBe(expected);
  });

  it('a minimum applies to tiered models too', () => {
    expect(amount(sheet('tie', { minimum: d('20') }), 2)).toBe('20.00'); // 10 < 20
    expect(amount(sheet('uni', { minimum: d('20') }), 5)).toBe('25.00'); // 25 > 20
  });

  it('reports the unit rate of the model', () => {
    expect(priceLine(sheet('fla', { base: d('99') }), d(3)).rate.toString()).toBe('99');
    expect(priceLine(sheet('uni'), d(15)).rate.toString()).toBe('4');
    expect(priceLine(sheet('vol'), d(30)).rate.toString()).toBe('3');
  });
});

describe('setup, explicit rates, discounts and tax', () => {
  it('prices a setup line once at its own amount', () => {
    expect(priceSetup(d('49.995')).amount.toFixed(2)).toBe('50.00');
    expect(priceSetup(d('0')).amount.toFixed(2)).toBe('0.00');
  });

  it('prices an explicit line_rate as rate x quantity', () => {
    expect(priceAtRate(d('19.99'), d(3)).amount.toFixed(2)).toBe('59.97');
    expect(priceAtRate(d('0.015'), d(1)).amount.toFixed(2)).toBe('0.02'); // half up
    expect(priceAtRate(d('33.333333'), d(3)).amount.toFixed(2)).toBe('100.00'); // 99.999999
  });

  it('a percent discount takes that percent of the non-discount lines, rounded once', () => {
    const ten = sheet('fla', { percent: d(10) });
    expect(priceDiscount(ten, d(1), d('123.45')).amount.toFixed(2)).toBe('-12.35'); // 12.345 -> 12.35
    expect(priceDiscount(ten, d(1), d('200')).amount.toFixed(2)).toBe('-20.00');
    expect(priceDiscount(sheet('fla', { percent: d('12.5') }), d(1), d('80')).amount.toFixed(2)).toBe('-10.00');
    expect(priceDiscount(ten, d(1), d(0)).amount.isZero()).toBe(true);
  });

  it('a fixed discount is minus its base times the quantity', () => {
    expect(priceDiscount(sheet('fla', { base: d(10) }), d(1), d(500)).amount.toFixed(2)).toBe('-10.00');
    expect(priceDiscount(sheet('fla', { base: d('2.5') }), d(3), d(500)).amount.toFixed(2)).toBe('-7.50');
  });

  it.each([
    ['297', '6', '17.82'],
    ['1188', '6', '71.28'],
    ['10.05', '7.25', '0.73'], // 0.728625
    ['0.07', '7', '0.00'], // 0.0049
    ['0.15', '10', '0.02'], // 0.015 -> half up
    ['-10', '10', '-1.00'],
  ])('tax on %s at %s%% = %s', (taxable, rate, expected) => {
    expect(lineTax(d(taxable), d(rate)).toFixed(2)).toBe(expected);
  });
});

describe('tierProblem', () => {
  it('accepts contiguous tiers from 1 with an open last tier', () => {
    expect(tierProblem(TIERS)).toBeNull();
    expect(tierProblem([tier(1, null, '1')])).toBeNull();
    expect(tierProblem([])).toBeNull();
  });

  it.each([
    [[tier(2, 10, '1')], 'tier 1 must start at unit 1 (tiers are contiguous from 1)'],
    [[tier(1, 10, '1'), tier(12, null, '1')], 'tier 2 must start at unit 11 (tiers are contiguous from 1)'],
    [[tier(1, 10, '1'), tier(10, null, '1')], 'tier 2 must start at unit 11 (tiers are contiguous from 1)'],
    [[tier(1, null, '1'), tier(11, 20, '1')], 'only the last tier may have no unit_to'],
    [[tier(1, 0, '1')], 'tier 1 ends before it starts'],
    [[tier(1, 5, '-1')], 'tier 1 has a negative amount'],
  ])('refuses %j', (tiers, problem) => {
    expect(tierProblem(tiers)).toBe(problem);
  });
});
