import { Injectable } from '@nestjs/common';
import { ActionCatalog } from 'src/core/actions/action-catalog';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { CUSTOMER_REF, CustomersService } from 'src/customers/customers.service';
import { Customer } from 'src/customers/entities/customer.entity';
import { modStamps } from 'src/core/context/record-stamps';
import { UnitOfWork } from 'src/database/unit-of-work';
import { BankAccountsService } from './bank-accounts.service';
import { CreditCardsService } from './credit-cards.service';
import { SetPayMethodDto } from './dto/set-paymethod.dto';
import { TokenizedService } from './tokenized.service';

/** `POST /customer/<id>?action=setPayMethod`: the customer's default payment method. */
@Injectable()
export class SetPayMethodAction {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly customers: CustomersService,
    private readonly cards: CreditCardsService,
    private readonly bankAccounts: BankAccountsService,
    private readonly tokenized: TokenizedService,
    catalog: ActionCatalog,
  ) {
    catalog.object(
      'customer',
      'setPayMethod',
      { summary: "Set the customer's default payment method", body: { dto: SetPayMethodDto } },
      (ref, dto, ctx) => this.run(ref, dto, ctx),
    );
  }

  private async run(ref: string, dto: SetPayMethodDto, ctx: RequestContext): Promise<true> {
    const sent = (['creditcard_id', 'ach_id', 'tokenized_id'] as const).filter((f) => dto[f] !== undefined);
    if (sent.length > 1) throw ApiError.badRequest(`Send only one of ${sent.join(', ')}.`);
    const paymethod =
      dto.paymethod ??
      (dto.creditcard_id !== undefined
        ? 'crd'
        : dto.ach_id !== undefined
          ? 'ach'
          : dto.tokenized_id
            ? 'tok'
            : undefined);
    if (paymethod === undefined) throw ApiError.badRequest('A required parameter was missing: "paymethod".');
    const expected = { crd: 'creditcard_id', ach: 'ach_id', tok: 'tokenized_id', inv: undefined }[paymethod];
    if (expected && dto[expected as keyof SetPayMethodDto] === undefined) {
      throw ApiError.badRequest(`A required parameter was missing: "${expected}" for paymethod "${paymethod}".`);
    }
    if (sent.length === 1 && sent[0] !== expected) {
      throw ApiError.badRequest(`Field "${sent[0]}" does not go with paymethod "${paymethod}".`);
    }
    await this.uow.run(async (tx) => {
      const m = tx.manager;
      const customer = await findByPathRef(m, CUSTOMER_REF, ref);
      const id = customer.customer_id;
      if (dto.creditcard_id !== undefined) await this.cards.ownedCard(m, id, dto.creditcard_id);
      if (dto.ach_id !== undefined) await this.bankAccounts.ownedAccount(m, id, dto.ach_id);
      if (dto.tokenized_id !== undefined) await this.tokenized.ownedMethod(m, id, dto.tokenized_id);
      await m.update(Customer, id, {
        default_paymethod: paymethod,
        default_creditcard_id: dto.creditcard_id ?? null,
        default_ach_id: dto.ach_id ?? null,
        default_tokenized_id: dto.tokenized_id ?? null,
        ...modStamps(ctx, this.clock.now()),
      });
      await this.revisions.record(tx, ctx, 'customer', id, `Default payment method set to ${paymethod}`);
      await this.customers.recordCustomerEvent(tx, ctx, id, 'update', false);
    });
    return true;
  }
}
