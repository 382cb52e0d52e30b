import { Money } from 'src/core/money/decimal';
import { aggregateUsage, UsageOption, UsageType, UsageValue } from './usage-aggregation';

let sequence = 0;
function v(
  value: string,
  type: UsageType = 'add',
  options: UsageOption[] = [],
  at = '2026-01-10T00:00:00Z',
): UsageValue {
  return { value: new Money(value), type, options, receivedAt: new Date(at), sequence: ++sequence };
}

describe('aggregateUsage', () => {
  it('is 0 without records', () => {
    expect(aggregateUsage([]).toString()).toBe('0');
  });

  it('add sums every value exactly', () => {
    expect(aggregateUsage([v('0.1'), v('0.2'), v('10.000001')]).toString()).toBe('10.300001');
  });

  it('max bills the largest value', () => {
    expect(aggregateUsage([v('5', 'max'), v('12.5', 'max'), v('7', 'max')]).toString()).toBe('12.5');
  });

  it('lat bills the most recently received value, whatever the order of the list', () => {
    const values = [v('9', 'lat', [], '2026-01-20T00:00:00Z'), v('3', 'lat', [], '2026-01-05T00:00:00Z')];
    expect(aggregateUsage(values).toString()).toBe('9');
  });

  it('lat breaks a tie on the time by arrival order', () => {
    expect(aggregateUsage([v('1', 'lat'), v('2', 'lat')]).toString()).toBe('2');
  });

  it('ceil rounds the combined total up, not each value', () => {
    expect(aggregateUsage([v('0.2', 'add', ['ceil']), v('0.2', 'add', ['ceil'])]).toString()).toBe('1');
    expect(aggregateUsage([v('2', 'add', ['ceil']), v('1', 'add', ['ceil'])]).toString()).toBe('3');
  });

  it('round rounds the total to the nearest integer, halves up', () => {
    expect(aggregateUsage([v('1.25', 'add', ['round']), v('1.25', 'add', ['round'])]).toString()).toBe('3');
    expect(aggregateUsage([v('1.2', 'add', ['round']), v('1.2', 'add', ['round'])]).toString()).toBe('2');
  });

  it('the latest record decides the type and the rounding', () => {
    const values = [v('4', 'add', [], '2026-01-01T00:00:00Z'), v('2.5', 'max', ['ceil'], '2026-01-02T00:00:00Z')];
    expect(aggregateUsage(values).toString()).toBe('4');
  });
});
