import { Injectable } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { RefTarget } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { UnitOfWork } from 'src/database/unit-of-work';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { normaliseCardNumber, passesLuhn } from './card-number';
import { CreateTokenizedDto } from './dto/create-tokenized.dto';
import { TokenizedPaymethod } from './entities/tokenized-paymethod.entity';
import { requireCustomer } from './paymethod-owner';
import { PaymethodStore } from './paymethod-store';
import { PaymethodPresenter } from './paymethod.presenter';
import { TOKENIZED_QUERY_FIELDS } from './paymethod.query-fields';
import { WireTokenized } from './wire-paymethod';

export const TOKENIZED_REF: RefTarget<TokenizedPaymethod> = {
  entity: TokenizedPaymethod,
  idColumn: 'tokenized_id',
  resource: 'tokenized',
};

@Injectable()
export class TokenizedService {
  private readonly methods: PaymethodStore<TokenizedPaymethod, WireTokenized>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly presenter: PaymethodPresenter,
    private readonly wire: WireFormat,
    private readonly gateway: PaymentGateway,
  ) {
    this.methods = new PaymethodStore<TokenizedPaymethod, WireTokenized>(
      {
        ref: TOKENIZED_REF,
        queryFields: TOKENIZED_QUERY_FIELDS,
        defaultColumn: 'default_tokenized_id',
        noun: 'tokenized payment method',
        present: (row) => this.presenter.tokenized(row),
        idsOnly: true,
      },
      { dataSource, uow, revisions, wire },
    );
  }

  async create(ctx: RequestContext, dto: CreateTokenizedDto, body: Record<string, unknown>): Promise<number> {
    if (dto.token === undefined) throw ApiError.badRequest('A required parameter was missing: "token".');
    const vaultToken = dto.token;
    // Tokens are kept and shown as sent: a real card number must never land here.
    const digits = normaliseCardNumber(vaultToken);
    if (digits !== null && passesLuhn(digits)) {
      throw ApiError.badRequest('Field "token" looks like a card number: send cards to /creditcard.');
    }
    const payer = await requireCustomer(this.dataSource.manager, body);
    // A gateway with its own customers takes the token into the payer's keeping and tells what it is.
    const told = await this.gateway.adoptToken(outsideUnit('a token adopted'), vaultToken, {
      customerId: payer,
      name: dto.name,
    });
    return this.uow.run(async (tx) => {
      const customerId = await requireCustomer(tx.manager, body);
      const inserted = await tx.manager.insert(TokenizedPaymethod, {
        customer_id: customerId,
        vault_token: vaultToken,
        type: (told?.brand && brandCode(told.brand)) ?? dto.type ?? null,
        name: dto.name ?? null,
        paymethod_hint: told ? (told.kind === 'ach' ? 'ach' : 'crd') : (dto.paymethod_hint ?? null),
        type_hint: dto.type_hint ?? null,
        expdate: told?.expYear && told.expMonth ? expdateOf(told.expYear, told.expMonth) : (dto.expdate ?? null),
        last4: told?.last4 ?? null,
        write_datetime: this.clock.now(),
        write_ipaddr: ctx.onBehalfAddr ?? ctx.ip,
      });
      const id = (inserted.identifiers[0] as { tokenized_id: number }).tokenized_id;
      await this.revisions.record(tx, ctx, 'tokenized', id, 'Tokenized payment method added');
      return id;
    });
  }

  findOne(ref: string): Promise<WireTokenized> {
    return this.methods.findOne(ref);
  }

  list(query: Record<string, unknown>): Promise<WireTokenized[]> {
    return this.methods.list(query);
  }

  count(query: Record<string, unknown>): Promise<number> {
    return this.methods.count(query);
  }

  remove(ctx: RequestContext, ref: string): Promise<true> {
    return this.methods.remove(ctx, ref);
  }

  /** The customer's own tokenized payment method, for paying or setting the default; 400 naming the field otherwise. */
  ownedMethod(m: EntityManager, customerId: number, id: number, field = 'tokenized_id'): Promise<TokenizedPaymethod> {
    return this.methods.owned(m, customerId, id, field);
  }
}

/** Stripe's card brand names as this server's brand codes (`type`); other brands as told. */
const BRAND_CODES: Readonly<Record<string, string>> = {
  visa: 'visa',
  mastercard: 'mast',
  amex: 'amex',
  discover: 'disc',
};

function brandCode(brand: string): string {
  return (BRAND_CODES[brand] ?? brand).slice(0, 32);
}

function expdateOf(year: number, month: number): string {
  return `${year}-${String(month).padStart(2, '0')}`;
}
