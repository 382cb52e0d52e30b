/**
 * An ABA routing number: 9 digits starting with a Federal Reserve prefix (01-12, 21-32,
 * 61-72, 80) whose weighted sum (3, 7, 1 repeating) is a multiple of 10. The prefix
 * check keeps out `000000000`, whose checksum passes.
 */
export function isValidAbaRouting(routing: string): boolean {
  if (!/^(0[1-9]|1[0-2]|2[1-9]|3[0-2]|6[1-9]|7[0-2]|80)\d{7}$/.test(routing)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (routing.charCodeAt(i) - 48) * weights[i];
  return sum % 10 === 0;
}

/** Account numbers are 4 to 17 digits. */
export function isValidBankAccountNumber(number: string): boolean {
  return /^\d{4,17}$/.test(number);
}

/** `xxxxxxxx1116`: the last four digits only. */
export function maskBankAccount(number: string): string {
  return `${'x'.repeat(Math.max(number.length - 4, 0))}${number.slice(-4)}`;
}
