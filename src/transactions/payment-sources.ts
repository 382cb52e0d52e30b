import { Injectable } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import { EntityManager, IsNull } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { isPlainObject, validateBody } from 'src/core/validation/validate-body';
import { Customer } from 'src/customers/entities/customer.entity';
import { UnitOfWork } from 'src/database/unit-of-work';
import { ChargeSource, PaymentGateway } from 'src/payments/payment-gateway';
import { BankAccountsService } from 'src/paymethods/bank-accounts.service';
import { checkBankAccount } from 'src/paymethods/bank-account-input';
import { isCardExpired } from 'src/payments/card-expiry';
import { checkCard } from 'src/paymethods/card-input';
import { BRAND_NAMES, CardBrand } from 'src/paymethods/card-number';
import { CreditCardsService } from 'src/paymethods/credit-cards.service';
import { BankAccountFieldsDto } from 'src/paymethods/dto/bank-account-fields.dto';
import { CardFieldsDto } from 'src/paymethods/dto/card-fields.dto';
import { AchAccount } from 'src/paymethods/entities/ach-account.entity';
import { CreditCard } from 'src/paymethods/entities/credit-card.entity';
import { TokenizedPaymethod } from 'src/paymethods/entities/tokenized-paymethod.entity';
import { TokenizedService } from 'src/paymethods/tokenized.service';
import { PayableInvoice } from './invoice-ledger';
import { StoredMethodRef, SubscriptionPaymethods } from './subscription-paymethod';

/** One way to pay, ready for the gateway, with what the transaction records about it. */
export interface PaymentSource {
  charge: ChargeSource;
  transaction_method: string;
  transaction_detail: string;
  creditcard_id: number | null;
  ach_id: number | null;
  tokenized_id: number | null;
}

/** Which step of the selection chose the methods (SPEC "Payment-method selection"). */
export type SelectionStep = 'paymethods' | 'subscription' | 'customer-default' | 'customer-all';

/**
 * The payment methods a payment tries, in order: the ones sent in `paymethods`, else
 * (1) the subscription's method of an invoice paid, (2) the customer's default,
 * (3) all of the customer's methods.
 */
@Injectable()
export class PaymentSources {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly gateway: PaymentGateway,
    private readonly cards: CreditCardsService,
    private readonly bankAccounts: BankAccountsService,
    private readonly tokenized: TokenizedService,
    private readonly subscriptions: SubscriptionPaymethods,
  ) {}

  /** Checks the sent methods without storing or charging anything (a 400 writes nothing). */
  preflight(raw: unknown): void {
    if (raw === undefined) return;
    if (!Array.isArray(raw) || raw.length === 0) {
      throw ApiError.badRequest('Field "paymethods" must be a non-empty array of payment methods.');
    }
    raw.forEach((item, i) => this.checkNew(item, `paymethods[${i}].`));
  }

  async select(
    m: EntityManager,
    ctx: RequestContext,
    customerId: number,
    raw: unknown,
    invoices: PayableInvoice[],
  ): Promise<{ step: SelectionStep; sources: PaymentSource[] }> {
    if (raw !== undefined) {
      const sources: PaymentSource[] = [];
      for (const [i, item] of (raw as unknown[]).entries())
        sources.push(await this.fromSent(m, ctx, customerId, item, i));
      return { step: 'paymethods', sources };
    }
    for (const invoice of invoices) {
      if (invoice.package_id === null) continue;
      const ref = await this.subscriptions.methodOf(m, invoice.package_id);
      const source = ref && (await this.stored(m, customerId, ref));
      if (source) return { step: 'subscription', sources: [source] };
    }
    const customer = await m.findOneOrFail(Customer, { where: { customer_id: customerId } });
    const defaultRef = defaultOf(customer);
    const byDefault = defaultRef && (await this.stored(m, customerId, defaultRef));
    if (byDefault) return { step: 'customer-default', sources: [byDefault] };
    const all = await this.allOf(m, customerId);
    if (!all.length) {
      throw ApiError.badRequest(
        `No payment method to charge: send "paymethods" or store a card or bank account for customer ${customerId}.`,
      );
    }
    return { step: 'customer-all', sources: all };
  }

  private checkNew(item: unknown, where: string): void {
    if (!isPlainObject(item)) throw ApiError.badRequest(`Field "${where.slice(0, -1)}" must be an object.`);
    if (['creditcard_id', 'ach_id', 'tokenized_id'].some((k) => k in item)) {
      const keys = Object.keys(item);
      if (keys.length !== 1) {
        throw ApiError.badRequest(
          `Field "${where.slice(0, -1)}": send only one of creditcard_id, ach_id, tokenized_id.`,
        );
      }
      const value = item[keys[0]];
      if (!(typeof value === 'number' && Number.isInteger(value) && value > 0) && !/^[1-9]\d*$/.test(String(value))) {
        throw ApiError.badRequest(`Field "${where}${keys[0]}" must be an integer id.`);
      }
      return;
    }
    if ('routing' in item) checkBankAccount(validateBody(BankAccountFieldsDto, item), where);
    else checkCard(validateBody(CardFieldsDto, item), where);
  }

  private async fromSent(
    m: EntityManager,
    ctx: RequestContext,
    customerId: number,
    item: unknown,
    i: number,
  ): Promise<PaymentSource> {
    const body = item as Record<string, unknown>;
    const where = `paymethods[${i}].`;
    if ('creditcard_id' in body)
      return cardSource(await this.cards.ownedCard(m, customerId, Number(body.creditcard_id), `${where}creditcard_id`));
    if ('ach_id' in body)
      return achSource(await this.bankAccounts.ownedAccount(m, customerId, Number(body.ach_id), `${where}ach_id`));
    if ('tokenized_id' in body) {
      return tokenizedSource(
        await this.tokenized.ownedMethod(m, customerId, Number(body.tokenized_id), `${where}tokenized_id`),
      );
    }
    if ('routing' in body) {
      const dto = validateBody(BankAccountFieldsDto, body);
      const account = checkBankAccount(dto, where);
      const token = await this.gateway.tokenizeBankAccount(outsideUnit('a bank account tokenized'), account, {
        customerId,
        name: dto.name,
      });
      const id = await this.uow.run((tx) => this.bankAccounts.store(tx, ctx, customerId, account, token, dto));
      return achSource(await m.findOneOrFail(AchAccount, { where: { ach_id: id } }));
    }
    const dto = validateBody(CardFieldsDto, body);
    const card = checkCard(dto, where);
    const token = await this.gateway.tokenizeCard(outsideUnit('a card tokenized'), card, {
      customerId,
      name: dto.name,
    });
    const charge: ChargeSource = { kind: 'card', gatewayToken: token, expYear: card.expYear, expMonth: card.expMonth };
    const base = {
      charge,
      transaction_method: BRAND_NAMES[card.brand],
      transaction_detail: `x${card.last4}`,
      ach_id: null,
      tokenized_id: null,
    };
    // An expired card is not kept; the gateway still gets to decline it.
    if (isCardExpired(card.expYear, card.expMonth, this.clock.now())) return { ...base, creditcard_id: null };
    const id = await this.uow.run((tx) => this.cards.store(tx, ctx, customerId, card, token, dto));
    return { ...base, creditcard_id: id };
  }

  private async stored(m: EntityManager, customerId: number, ref: StoredMethodRef): Promise<PaymentSource | null> {
    if ('creditcard_id' in ref) {
      const card = await m.findOne(CreditCard, {
        where: { creditcard_id: ref.creditcard_id, customer_id: customerId },
      });
      return card ? cardSource(card) : null;
    }
    if ('ach_id' in ref) {
      const account = await m.findOne(AchAccount, { where: { ach_id: ref.ach_id, customer_id: customerId } });
      return account ? achSource(account) : null;
    }
    const method = await m.findOne(TokenizedPaymethod, {
      where: { tokenized_id: ref.tokenized_id, customer_id: customerId },
    });
    return method ? tokenizedSource(method) : null;
  }

  private async allOf(m: EntityManager, customerId: number): Promise<PaymentSource[]> {
    const where = { customer_id: customerId, deleted_datetime: IsNull() };
    const cards = await m.find(CreditCard, { where, order: { creditcard_id: 'ASC' } });
    const accounts = await m.find(AchAccount, { where, order: { ach_id: 'ASC' } });
    const tokenized = await m.find(TokenizedPaymethod, { where, order: { tokenized_id: 'ASC' } });
    return [...cards.map(cardSource), ...accounts.map(achSource), ...tokenized.map(tokenizedSource)];
  }
}

function defaultOf(c: Customer): StoredMethodRef | null {
  if (c.default_paymethod === 'crd' && c.default_creditcard_id) return { creditcard_id: c.default_creditcard_id };
  if (c.default_paymethod === 'ach' && c.default_ach_id) return { ach_id: c.default_ach_id };
  if (c.default_paymethod === 'tok' && c.default_tokenized_id) return { tokenized_id: c.default_tokenized_id };
  return null;
}

function cardSource(c: CreditCard): PaymentSource {
  return {
    charge: { kind: 'card', gatewayToken: c.gateway_token, expYear: c.expdate_year, expMonth: c.expdate_month },
    transaction_method: BRAND_NAMES[c.type as CardBrand] ?? c.type,
    transaction_detail: `x${c.last4}`,
    creditcard_id: c.creditcard_id,
    ach_id: null,
    tokenized_id: null,
  };
}

function achSource(a: AchAccount): PaymentSource {
  return {
    charge: { kind: 'ach', gatewayToken: a.gateway_token },
    transaction_method: 'ACH',
    transaction_detail: `x${a.last4}`,
    creditcard_id: null,
    ach_id: a.ach_id,
    tokenized_id: null,
  };
}

function tokenizedSource(t: TokenizedPaymethod): PaymentSource {
  return {
    charge: { kind: 'tokenized', gatewayToken: t.vault_token },
    transaction_method: 'Tokenized',
    transaction_detail: t.vault_token,
    creditcard_id: null,
    ach_id: null,
    tokenized_id: t.tokenized_id,
  };
}
