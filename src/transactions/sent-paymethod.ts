import { Injectable } from '@nestjs/common';
import { RequestContext } from 'src/core/context/request-context';
import { validateBody } from 'src/core/validation/validate-body';
import { BankAccountsService } from 'src/paymethods/bank-accounts.service';
import { CreditCardsService } from 'src/paymethods/credit-cards.service';
import { CreateBankAccountDto } from 'src/paymethods/dto/bank-account-fields.dto';
import { CreateCreditCardDto } from 'src/paymethods/dto/card-fields.dto';

/** A `paymethods` entry naming a stored method. */
export type StoredPaymethodRef = { creditcard_id: number } | { ach_id: number };

/**
 * The original service's PHP client pays an invoice by sending the card (`number`,
 * `expdate_month`, `expdate_year`, `name`, `cvv`, address) or bank account (`number`,
 * `routing`, `name`, `type`) itself as the body of `POST /invoice/<id>?action=pay`.
 */
export function isSentPaymethod(body: Record<string, unknown>): boolean {
  return body.number !== undefined;
}

/** Stores such a body on the customer exactly as `POST /creditcard` or `POST /ach` would. */
@Injectable()
export class SentPaymethod {
  constructor(
    private readonly cards: CreditCardsService,
    private readonly bankAccounts: BankAccountsService,
  ) {}

  async store(ctx: RequestContext, customerId: number, body: Record<string, unknown>): Promise<StoredPaymethodRef> {
    const owned = { ...body, customer_id: customerId };
    if (body.routing !== undefined) {
      return { ach_id: await this.bankAccounts.create(ctx, validateBody(CreateBankAccountDto, owned), owned) };
    }
    return { creditcard_id: await this.cards.create(ctx, validateBody(CreateCreditCardDto, owned), owned) };
  }
}
