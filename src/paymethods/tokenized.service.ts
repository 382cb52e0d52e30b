import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { applyListQuery, applyWhere } from 'src/core/query';
import { findByPathRef, RefTarget } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { UnitOfWork } from 'src/database/unit-of-work';
import { normaliseCardNumber, passesLuhn } from './card-number';
import { CreateTokenizedDto } from './dto/create-tokenized.dto';
import { TokenizedPaymethod } from './entities/tokenized-paymethod.entity';
import { requireCustomer } from './paymethod-owner';
import { PaymethodPresenter } from './paymethod.presenter';
import { TOKENIZED_QUERY_FIELDS } from './paymethod.query-fields';

export const TOKENIZED_REF: RefTarget<TokenizedPaymethod> = {
  entity: TokenizedPaymethod,
  idColumn: 'tokenized_id',
  resource: 'tokenized',
};

@Injectable()
export class TokenizedService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly presenter: PaymethodPresenter,
    private readonly wire: WireFormat,
  ) {}

  async create(ctx: RequestContext, dto: CreateTokenizedDto, body: Record<string, unknown>): Promise<number> {
    if (dto.token === undefined) throw ApiError.badRequest('A required parameter was missing: "token".');
    const vaultToken = dto.token;
    // Tokens are kept and shown as sent: a real card number must never land here.
    const digits = normaliseCardNumber(vaultToken);
    if (digits !== null && passesLuhn(digits)) {
      throw ApiError.badRequest('Field "token" looks like a card number: send cards to /creditcard.');
    }
    return this.uow.run(async (tx) => {
      const customerId = await requireCustomer(tx.manager, body);
      const inserted = await tx.manager.insert(TokenizedPaymethod, {
        customer_id: customerId,
        vault_token: vaultToken,
        type: dto.type ?? null,
        name: dto.name ?? null,
        paymethod_hint: dto.paymethod_hint ?? null,
        type_hint: dto.type_hint ?? null,
        expdate: dto.expdate ?? null,
        write_datetime: this.clock.now(),
        write_ipaddr: ctx.onBehalfAddr ?? ctx.ip,
      });
      const id = (inserted.identifiers[0] as { tokenized_id: number }).tokenized_id;
      await this.revisions.record(tx, ctx, 'tokenized', id, 'Tokenized payment method added');
      return id;
    });
  }

  async findOne(ref: string): Promise<Record<string, unknown>> {
    return this.presenter.tokenized(await this.find(this.dataSource.manager, ref));
  }

  async list(query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    const qb = this.dataSource.manager.createQueryBuilder(TokenizedPaymethod, 'pm');
    applyListQuery(qb, TOKENIZED_QUERY_FIELDS, query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 'pm.tokenized_id', dir: 'ASC' },
    });
    return (await qb.getMany()).map((t) => this.presenter.tokenized(t));
  }

  async count(query: Record<string, unknown>): Promise<number> {
    const qb = this.dataSource.manager.createQueryBuilder(TokenizedPaymethod, 'pm');
    return applyWhere(qb, TOKENIZED_QUERY_FIELDS, query.where, this.wire.timezone).getCount();
  }

  async remove(ctx: RequestContext, ref: string): Promise<true> {
    await this.uow.run(async (tx) => {
      const method = await this.find(tx.manager, ref);
      await tx.manager.softDelete(TokenizedPaymethod, method.tokenized_id);
      await tx.manager.update(
        Customer,
        { customer_id: method.customer_id, default_tokenized_id: method.tokenized_id },
        { default_tokenized_id: null, default_paymethod: null },
      );
      await this.revisions.record(tx, ctx, 'tokenized', method.tokenized_id, 'Tokenized payment method deleted');
    });
    return true;
  }

  /** Tokenized methods have no token or external key of their own: only ids address them. */
  private find(m: EntityManager, ref: string): Promise<TokenizedPaymethod> {
    if (!/^\d+$/.test(ref)) throw ApiError.notFound('tokenized');
    return findByPathRef(m, TOKENIZED_REF, ref);
  }

  async ownedMethod(
    m: EntityManager,
    customerId: number,
    id: number,
    field = 'tokenized_id',
  ): Promise<TokenizedPaymethod> {
    const method = await m.findOne(TokenizedPaymethod, { where: { tokenized_id: id } });
    if (!method || method.customer_id !== customerId) {
      throw ApiError.badRequest(
        `Field "${field}": customer ${customerId} has no tokenized payment method with id ${id}.`,
      );
    }
    return method;
  }
}
