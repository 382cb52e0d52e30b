import { ApiError } from 'src/core/envelope/api-error';
import { CardInput } from 'src/payments/payment-gateway';
import { CardBrand, cardBrand, isValidCvv, normaliseCardNumber, passesLuhn } from './card-number';
import { CardFieldsDto } from './dto/card-fields.dto';

/** A checked card, still holding its number: it must not outlive the request. */
export interface CheckedCard extends CardInput {
  brand: CardBrand;
  last4: string;
}

/**
 * Checks a card from a request: Luhn, brand, expiry fields, CVV format. Messages name
 * the field and never repeat its value.
 */
export function checkCard(dto: CardFieldsDto, where = ''): CheckedCard {
  if (dto.number === undefined) throw ApiError.badRequest(`A required parameter was missing: "${where}number".`);
  const digits = normaliseCardNumber(dto.number);
  if (digits === null || !passesLuhn(digits)) {
    throw ApiError.badRequest(`Field "${where}number" is not a valid card number.`);
  }
  const brand = cardBrand(digits);
  if (brand === null) {
    throw ApiError.badRequest(
      `Field "${where}number": the card brand is not accepted (Visa, MasterCard, American Express, Discover).`,
    );
  }
  const { expYear, expMonth } = expiryOf(dto, where);
  if (dto.cvv !== undefined && !isValidCvv(dto.cvv, brand)) {
    throw ApiError.badRequest(`Field "${where}cvv" must be ${brand === 'amex' ? 4 : 3} digits.`);
  }
  return { number: digits, brand, last4: digits.slice(-4), expYear, expMonth, cvv: dto.cvv };
}

function expiryOf(dto: CardFieldsDto, where: string): { expYear: number; expMonth: number } {
  let year = dto.expdate_year;
  let month = dto.expdate_month;
  if (dto.expdate !== undefined) {
    const match = /^(\d{4})-(\d{2})$/.exec(dto.expdate);
    if (!match) throw ApiError.badRequest(`Field "${where}expdate" must be YYYY-MM.`);
    year = Number(match[1]);
    month = Number(match[2]);
  }
  if (year === undefined || month === undefined) {
    throw ApiError.badRequest(
      `A required parameter was missing: "${where}expdate_year" and "${where}expdate_month" (or "${where}expdate").`,
    );
  }
  if (year < 100) year += 2000;
  if (month < 1 || month > 12) throw ApiError.badRequest(`Field "${where}expdate_month" must be from 1 to 12.`);
  if (year < 2000 || year > 2099) throw ApiError.badRequest(`Field "${where}expdate_year" is not a valid year.`);
  return { expYear: year, expMonth: month };
}
