import { ApiError } from 'src/core/envelope/api-error';
import { BankAccountInput } from 'src/payments/payment-gateway';
import { isValidAbaRouting, isValidBankAccountNumber } from './aba-routing';
import { BankAccountFieldsDto } from './dto/bank-account-fields.dto';
import { typedDigits } from './typed-digits';

export interface CheckedBankAccount extends BankAccountInput {
  type: string;
  last4: string;
}

/**
 * Checks a bank account from a request: account digits and the routing number's ABA
 * checksum, both read without the spaces and dashes people type (as card numbers are).
 */
export function checkBankAccount(dto: BankAccountFieldsDto, where = ''): CheckedBankAccount {
  if (dto.number === undefined) throw ApiError.badRequest(`A required parameter was missing: "${where}number".`);
  if (dto.routing === undefined) throw ApiError.badRequest(`A required parameter was missing: "${where}routing".`);
  const number = typedDigits(dto.number);
  const routing = typedDigits(dto.routing);
  if (!isValidBankAccountNumber(number)) {
    throw ApiError.badRequest(`Field "${where}number" must be a bank account number of 4 to 17 digits.`);
  }
  if (!isValidAbaRouting(routing)) {
    throw ApiError.badRequest(`Field "${where}routing" is not a valid ABA routing number.`);
  }
  return { number, routing, type: dto.type ?? 'chec', last4: number.slice(-4) };
}
