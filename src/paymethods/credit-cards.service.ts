import { Injectable } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { assertExternalKeyFree } from 'src/core/refs/external-key';
import { RefTarget } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { modStamps, newRecordStamps } from 'src/core/context/record-stamps';
import { lockCustomers } from 'src/customers/customer-lock';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { isCardExpired } from 'src/payments/card-expiry';
import { CheckedCard, checkCard } from './card-input';
import { CardFieldsDto, CreateCreditCardDto } from './dto/card-fields.dto';
import { CreditCard } from './entities/credit-card.entity';
import { requireCustomer } from './paymethod-owner';
import { PaymethodStore } from './paymethod-store';
import { PaymethodPresenter } from './paymethod.presenter';
import { CARD_QUERY_FIELDS } from './paymethod.query-fields';
import { WireCreditCard } from './wire-paymethod';

export const CARD_REF: RefTarget<CreditCard> = {
  entity: CreditCard,
  idColumn: 'creditcard_id',
  resource: 'creditcard',
};

/** Card details kept beside the number (which is never stored). */
type CardExtras = Pick<CardFieldsDto, 'name' | 'address' | 'city' | 'state' | 'postcode' | 'country'> & {
  external_key?: string | null;
};

@Injectable()
export class CreditCardsService {
  private readonly methods: PaymethodStore<CreditCard, WireCreditCard>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly gateway: PaymentGateway,
    private readonly presenter: PaymethodPresenter,
    private readonly wire: WireFormat,
  ) {
    this.methods = new PaymethodStore<CreditCard, WireCreditCard>(
      {
        ref: CARD_REF,
        queryFields: CARD_QUERY_FIELDS,
        defaultColumn: 'default_creditcard_id',
        noun: 'credit card',
        present: (row) => this.presenter.card(row),
      },
      { dataSource, uow, revisions, wire },
    );
  }

  async create(ctx: RequestContext, dto: CreateCreditCardDto, body: Record<string, unknown>): Promise<number> {
    const card = checkCard(dto);
    if (isCardExpired(card.expYear, card.expMonth, this.clock.now())) {
      throw ApiError.badRequest('Field "expdate_year": the card has expired.');
    }
    // The payer first: a gateway that keeps customers files the card under it.
    const payer = await requireCustomer(this.dataSource.manager, body);
    const gatewayToken = await this.gateway.tokenizeCard(outsideUnit('a card tokenized'), card, {
      customerId: payer,
      name: dto.name,
    });
    return this.uow.run(async (tx) => {
      const customerId = await requireCustomer(tx.manager, body);
      return this.store(tx, ctx, customerId, card, gatewayToken, dto);
    });
  }

  /**
   * Stores a checked card for a customer; the same brand, last four digits and expiry
   * again updates the stored one. Also used for new cards sent with a payment.
   */
  async store(
    tx: Tx,
    ctx: RequestContext,
    customerId: number,
    card: CheckedCard,
    gatewayToken: string,
    extras: CardExtras,
  ): Promise<number> {
    const m = tx.manager;
    // Under the customer's lock: the same card posted twice at once is stored once.
    await lockCustomers(tx, [customerId]);
    const now = this.clock.now();
    const details = {
      name: extras.name,
      address: extras.address,
      city: extras.city,
      state: extras.state,
      postcode: extras.postcode,
      country: extras.country,
    };
    const existing = await m.findOne(CreditCard, {
      where: {
        customer_id: customerId,
        type: card.brand,
        last4: card.last4,
        expdate_year: card.expYear,
        expdate_month: card.expMonth,
        deleted_datetime: IsNull(),
      },
    });
    if (existing) {
      await assertExternalKeyFree(
        m,
        CreditCard,
        'creditcard_id',
        extras.external_key,
        'creditcard',
        existing.creditcard_id,
      );
      await m.update(CreditCard, existing.creditcard_id, {
        ...withoutUndefined({ ...details, external_key: extras.external_key }),
        gateway_token: gatewayToken,
        ...modStamps(ctx, now),
      });
      await this.revisions.record(tx, ctx, 'creditcard', existing.creditcard_id, 'Credit card updated');
      return existing.creditcard_id;
    }
    await assertExternalKeyFree(m, CreditCard, 'creditcard_id', extras.external_key, 'creditcard');
    const inserted = await m.insert(CreditCard, {
      ...withoutUndefined(details),
      external_key: extras.external_key ?? null,
      customer_id: customerId,
      type: card.brand,
      last4: card.last4,
      expdate_year: card.expYear,
      expdate_month: card.expMonth,
      gateway_token: gatewayToken,
      ...newRecordStamps(ctx, now),
    });
    const id = (inserted.identifiers[0] as { creditcard_id: number }).creditcard_id;
    await this.revisions.record(tx, ctx, 'creditcard', id, 'Credit card added');
    return id;
  }

  findOne(ref: string): Promise<WireCreditCard> {
    return this.methods.findOne(ref);
  }

  list(query: Record<string, unknown>): Promise<WireCreditCard[]> {
    return this.methods.list(query);
  }

  count(query: Record<string, unknown>): Promise<number> {
    return this.methods.count(query);
  }

  remove(ctx: RequestContext, ref: string): Promise<true> {
    return this.methods.remove(ctx, ref);
  }

  /** The customer's own credit card, for paying or setting the default; 400 naming the field otherwise. */
  ownedCard(m: EntityManager, customerId: number, id: number, field = 'creditcard_id'): Promise<CreditCard> {
    return this.methods.owned(m, customerId, id, field);
  }
}

function withoutUndefined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
