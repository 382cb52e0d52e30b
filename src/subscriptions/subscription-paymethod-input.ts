import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { Customer } from 'src/customers/entities/customer.entity';
import { BankAccountsService } from 'src/paymethods/bank-accounts.service';
import { CreditCardsService } from 'src/paymethods/credit-cards.service';
import { TokenizedService } from 'src/paymethods/tokenized.service';
import { Paymethod, SubscriptionPaymethodDto } from './dto/subscription-fields.dto';

export interface SubscriptionPaymethodColumns {
  paymethod: Paymethod;
  creditcard_id: number | null;
  ach_id: number | null;
  tokenized_id: number | null;
}

const STORED_FIELD = { crd: 'creditcard_id', ach: 'ach_id', tok: 'tokenized_id' } as const;

/**
 * Reads a subscription's payment method (DESIGN §6: `paymethod`, or implied by
 * `creditcard_id` / `ach_id` / `tokenized_id`; the stored method must be the customer's).
 * Null when none of the fields was sent.
 */
@Injectable()
export class SubscriptionPaymethodInput {
  constructor(
    private readonly cards: CreditCardsService,
    private readonly bankAccounts: BankAccountsService,
    private readonly tokenized: TokenizedService,
  ) {}

  async read(
    m: EntityManager,
    customerId: number,
    dto: SubscriptionPaymethodDto,
  ): Promise<SubscriptionPaymethodColumns | null> {
    const sent = (['creditcard_id', 'ach_id', 'tokenized_id'] as const).filter(
      (f) => dto[f] !== undefined && dto[f] !== null,
    );
    if (dto.paymethod === undefined && sent.length === 0) return null;
    if (sent.length > 1) throw ApiError.badRequest(`Send only one of ${sent.join(', ')}.`);
    const implied = sent[0] === 'creditcard_id' ? 'crd' : sent[0] === 'ach_id' ? 'ach' : sent[0] ? 'tok' : 'inv';
    const paymethod = dto.paymethod ?? implied;
    const expected = paymethod in STORED_FIELD ? STORED_FIELD[paymethod as keyof typeof STORED_FIELD] : undefined;
    if (sent.length === 1 && sent[0] !== expected) {
      throw ApiError.badRequest(`Field "${sent[0]}" does not go with paymethod "${paymethod}".`);
    }
    if (expected && dto[expected] === undefined) {
      throw ApiError.badRequest(`A required parameter was missing: "${expected}" for paymethod "${paymethod}".`);
    }
    if (dto.creditcard_id) await this.cards.ownedCard(m, customerId, dto.creditcard_id);
    if (dto.ach_id) await this.bankAccounts.ownedAccount(m, customerId, dto.ach_id);
    if (dto.tokenized_id) await this.tokenized.ownedMethod(m, customerId, dto.tokenized_id);
    return {
      paymethod,
      creditcard_id: dto.creditcard_id ?? null,
      ach_id: dto.ach_id ?? null,
      tokenized_id: dto.tokenized_id ?? null,
    };
  }
}

/**
 * A new subscription's payment method when none was given (DESIGN §6 "Subscriptions"): the
 * customer's default payment method when it has one (with its stored method), else `inv`.
 */
export function defaultPaymethodOf(
  customer: Pick<Customer, 'default_paymethod' | 'default_creditcard_id' | 'default_ach_id' | 'default_tokenized_id'>,
): SubscriptionPaymethodColumns {
  const none = { creditcard_id: null, ach_id: null, tokenized_id: null };
  const { default_paymethod: method } = customer;
  if (method === 'crd' && customer.default_creditcard_id) {
    return { ...none, paymethod: 'crd', creditcard_id: customer.default_creditcard_id };
  }
  if (method === 'ach' && customer.default_ach_id)
    return { ...none, paymethod: 'ach', ach_id: customer.default_ach_id };
  if (method === 'tok' && customer.default_tokenized_id) {
    return { ...none, paymethod: 'tok', tokenized_id: customer.default_tokenized_id };
  }
  return { ...none, paymethod: 'inv' };
}
