import { customFields10, customFields20, customFields5 } from './custom-fields';

describe('customFields', () => {
  const row = {
    custom_1: 'one',
    custom_3: null,
    custom_5: 'five',
    custom_10: 'ten',
    custom_20: 'twenty',
    custom_21: 'x',
  };

  it.each([
    [5, customFields5],
    [10, customFields10],
    [20, customFields20],
  ])('gives custom_1..custom_%i in order, null when unset, and nothing past the last', (count, fields) => {
    const presented = fields(row) as Record<string, string | null>;
    expect(Object.keys(presented)).toEqual(Array.from({ length: count }, (_, i) => `custom_${i + 1}`));
    for (const [key, value] of Object.entries(presented)) {
      expect(value).toBe((row as Record<string, string | null | undefined>)[key] ?? null);
    }
    expect(presented.custom_1).toBe('one');
    expect(presented.custom_2).toBeNull();
  });
});
