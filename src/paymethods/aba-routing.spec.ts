import { isValidAbaRouting, isValidBankAccountNumber, maskBankAccount } from './aba-routing';

describe('ABA routing numbers', () => {
  it.each([
    ['110000000', true],
    ['021000021', true],
    ['011401533', true],
    ['110000001', false],
    ['12345678', false],
    ['12345678a', false],
    // Checksum right, but no Federal Reserve prefix (01-12, 21-32, 61-72, 80).
    ['000000000', false],
    ['500000005', false],
    ['800000006', true],
  ])('%s -> %s', (routing, ok) => {
    expect(isValidAbaRouting(routing)).toBe(ok);
  });

  it('checks account numbers and masks them', () => {
    expect(isValidBankAccountNumber('000111111116')).toBe(true);
    expect(isValidBankAccountNumber('12a4')).toBe(false);
    expect(maskBankAccount('000111111116')).toBe('xxxxxxxx1116');
  });
});
