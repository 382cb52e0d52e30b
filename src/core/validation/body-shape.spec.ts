import { bodyShapeProblem } from './body-shape';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { tags: value };
  return value;
}

describe('bodyShapeProblem', () => {
  it('accepts an ordinary body', () => {
    expect(bodyShapeProblem({ name: 'x', line_items: [{ item_id: 1, custom_1: null }], tags: ['a'] })).toBeNull();
    expect(bodyShapeProblem(nested(32))).toBeNull();
  });

  it('refuses nesting deeper than 32 levels, even 100,000 deep, without overflowing', () => {
    expect(bodyShapeProblem(nested(33))).toMatch(/nested deeper than 32 levels/);
    expect(bodyShapeProblem(nested(100_000))).toMatch(/nested deeper than 32 levels/);
  });

  it('names the field holding an over-long string, array or object', () => {
    expect(bodyShapeProblem({ items: [{ descrip: 'x'.repeat(65_536) }] })).toBe(
      'Invalid field "items[0].descrip": at most 65535 characters.',
    );
    expect(bodyShapeProblem({ tags: new Array(1001).fill('a') })).toBe('Invalid field "tags": at most 1000 items.');
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]));
    expect(bodyShapeProblem({ custom: wide })).toBe('Invalid field "custom": at most 1000 fields.');
  });
});
