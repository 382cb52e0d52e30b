import { randomToken } from './random-token';

describe('randomToken', () => {
  it('is 12 lowercase alphanumerics by default', () => {
    for (let i = 0; i < 100; i++) expect(randomToken()).toMatch(/^[a-z0-9]{12}$/);
  });

  it('honours a requested length', () => {
    expect(randomToken(16)).toMatch(/^[a-z0-9]{16}$/);
    expect(randomToken(0)).toBe('');
  });

  it('does not repeat across 1000 draws', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => randomToken()));
    expect(tokens.size).toBe(1000);
  });

  it('uses the whole alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomToken()).join(''));
    expect([...seen].sort().join('')).toBe('0123456789abcdefghijklmnopqrstuvwxyz');
  });
});
