import { usageAmountOf } from './usage-pull';

describe('usageAmountOf (a 200 from USAGE_URL)', () => {
  it('reads line_items[0].usage_amount, a number or a numeric string, to 6 places', () => {
    expect(String(usageAmountOf('{"line_items":[{"usage_amount":12}]}'))).toBe('12');
    expect(String(usageAmountOf('{"line_items":[{"usage_amount":"0.1234567"}]}'))).toBe('0.123457');
    expect(String(usageAmountOf('{"line_items":[{"usage_amount":0}]}'))).toBe('0');
  });

  it.each([
    ['not json', 'without valid JSON'],
    ['', 'without valid JSON'],
    ['null', 'non-empty "line_items"'],
    ['{}', 'non-empty "line_items"'],
    ['{"line_items":[]}', 'non-empty "line_items"'],
    ['{"line_items":{"usage_amount":1}}', 'non-empty "line_items"'],
    ['{"line_items":[{}]}', 'numeric'],
    ['{"line_items":[null]}', 'numeric'],
    ['{"line_items":[{"usage_amount":"lots"}]}', 'numeric'],
    ['{"line_items":[{"usage_amount":true}]}', 'numeric'],
    ['{"line_items":[{"usage_amount":"1e3"}]}', 'numeric'],
    ['{"line_items":[{"usage_amount":-1}]}', 'negative'],
    ['{"line_items":[{"usage_amount":"-0.5"}]}', 'negative'],
    ['{"line_items":[{"usage_amount":1e12}]}', 'above'],
  ])('refuses %s', (body, reason) => {
    expect(usageAmountOf(body)).toEqual(expect.stringContaining(reason));
  });
});
