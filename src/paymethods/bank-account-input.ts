import { ApiError } from 'src/core/envelope/api-error';
import { BankAccountInput } from 'src/payments/payment-gateway';
import { isValidAbaRouting, isValidBankAccountNumber } from './aba-routing';
import { BankAccountFieldsDto } from './dto/bank-account-fields.dto';

export interface CheckedBankAccount extends BankAccountInput {
  type: string;
  last4: string;
}

/** Checks a bank account from a request: account digits and the routing number's ABA checksum. */
export function checkBankAccount(dto: BankAccountFieldsDto, where = ''): CheckedBankAccount {
  if (dto.number === undefined) throw ApiError.badRequest(`A required parameter was missing: "${where}number".`);
  if (dto.routing === undefined) throw ApiError.badRequest(`A required parameter was missing: "${where}routing".`);
  if (!isValidBankAccountNumber(dto.number)) {
    throw ApiError.badRequest(`Field "${where}number" must be a bank account number of 4 to 17 digits.`);
  }
  if (!isValidAbaRouting(dto.routing)) {
    throw ApiError.badRequest(`Field "${where}routing" is not a valid ABA routing number.`);
  }
  return { number: dto.number, routing: dto.routing, type: dto.type ?? 'chec', last4: dto.number.slice(-4) };
}
