import { Injectable } from '@nestjs/common';
import { RequestContext } from 'src/core/context/request-context';
import { validateBody } from 'src/core/validation/validate-body';
import { ActionCatalog } from 'src/core/actions/action-catalog';
import { BankAccountsService } from 'src/paymethods/bank-accounts.service';
import { CreditCardsService } from 'src/paymethods/credit-cards.service';
import { CreateBankAccountDto } from 'src/paymethods/dto/bank-account-fields.dto';
import { CreateCreditCardDto } from 'src/paymethods/dto/card-fields.dto';
import { CreateTokenizedDto } from 'src/paymethods/dto/create-tokenized.dto';
import { TokenizedService } from 'src/paymethods/tokenized.service';
import { PaymethodForm } from './paymethod-form';

/**
 * Saves a card or bank account a customer typed in and makes it the default (the "card
 * on file"), through the same services as `POST /creditcard` and `setPayMethod`: the
 * number goes to the gateway's tokenizer and only its mask is stored. With Stripe the
 * browser sends only Stripe's token, saved as `POST /tokenized` would.
 */
@Injectable()
export class PaymethodSaver {
  constructor(
    private readonly cards: CreditCardsService,
    private readonly bankAccounts: BankAccountsService,
    private readonly tokenized: TokenizedService,
    private readonly actions: ActionCatalog,
  ) {}

  async save(ctx: RequestContext, customerId: number, form: PaymethodForm): Promise<string> {
    if (form.kind === 'stripe') {
      const id = await this.storeToken(ctx, customerId, form);
      await this.setDefault(ctx, customerId, { paymethod: 'tok', tokenized_id: id });
      const { mask_number: mask } = await this.tokenized.findOne(String(id));
      return typeof mask === 'string' ? mask : 'your card';
    }
    const body: Record<string, unknown> = { ...form.fields, customer_id: customerId };
    if (form.kind === 'card') {
      const dto = validateBody(CreateCreditCardDto, body);
      const id = await this.cards.create(ctx, dto, body);
      await this.setDefault(ctx, customerId, { paymethod: 'crd', creditcard_id: id });
      return String((await this.cards.findOne(String(id))).mask_number);
    }
    const dto = validateBody(CreateBankAccountDto, body);
    const id = await this.bankAccounts.create(ctx, dto, body);
    await this.setDefault(ctx, customerId, { paymethod: 'ach', ach_id: id });
    return String((await this.bankAccounts.findOne(String(id))).mask_number);
  }

  /** A gateway token from the browser, kept as the customer's tokenized method: its id. */
  storeToken(ctx: RequestContext, customerId: number, form: PaymethodForm): Promise<number> {
    const body: Record<string, unknown> = { customer_id: customerId, token: form.fields.payment_method };
    return this.tokenized.create(ctx, validateBody(CreateTokenizedDto, body), body);
  }

  private async setDefault(ctx: RequestContext, customerId: number, body: Record<string, unknown>): Promise<void> {
    await this.actions.runObject('customer', 'setPayMethod', String(customerId), body, ctx);
  }
}
