import { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { applyListQuery, applyWhere } from 'src/core/query';
import { FieldMap } from 'src/core/query/field-map';
import { findByPathRef, RefTarget } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { UnitOfWork } from 'src/database/unit-of-work';

/** What sets one kind of stored payment method (card, bank account, tokenized) apart. */
export interface PaymethodKind<T extends ObjectLiteral, W> {
  ref: RefTarget<T>;
  queryFields: FieldMap;
  /** The customer column that points at this kind as the default method. */
  defaultColumn: 'default_creditcard_id' | 'default_ach_id' | 'default_tokenized_id';
  /** For messages: "credit card", "bank account", ... */
  noun: string;
  present(row: T): W;
  /** Only numeric ids address it (no token or external key of its own). */
  idsOnly?: boolean;
}

export interface PaymethodStoreDeps {
  dataSource: DataSource;
  uow: UnitOfWork;
  revisions: RevisionService;
  wire: WireFormat;
}

/** Read, list, count, delete and ownership checks, the same for every kind of payment method. */
export class PaymethodStore<T extends ObjectLiteral & { customer_id: number }, W extends object> {
  constructor(
    private readonly kind: PaymethodKind<T, W>,
    private readonly deps: PaymethodStoreDeps,
  ) {}

  find(m: EntityManager, ref: string): Promise<T> {
    if (this.kind.idsOnly && !/^\d+$/.test(ref)) throw ApiError.notFound(this.kind.ref.resource);
    return findByPathRef(m, this.kind.ref, ref);
  }

  async findOne(ref: string): Promise<W> {
    return this.kind.present(await this.find(this.deps.dataSource.manager, ref));
  }

  async list(query: Record<string, unknown>): Promise<W[]> {
    const qb = this.deps.dataSource.manager.createQueryBuilder(this.kind.ref.entity, 'pm');
    applyListQuery(qb, this.kind.queryFields, query, {
      timezone: this.deps.wire.timezone,
      defaultOrder: { expr: `pm.${this.kind.ref.idColumn}`, dir: 'ASC' },
    });
    return (await qb.getMany()).map((row) => this.kind.present(row));
  }

  count(query: Record<string, unknown>): Promise<number> {
    const qb = this.deps.dataSource.manager.createQueryBuilder(this.kind.ref.entity, 'pm');
    return applyWhere(qb, this.kind.queryFields, query.where, this.deps.wire.timezone).getCount();
  }

  /** Soft-deletes it; a deleted method can no longer be the customer's default. */
  async remove(ctx: RequestContext, ref: string): Promise<true> {
    await this.deps.uow.run(async (tx) => {
      const method = await this.find(tx.manager, ref);
      const id = method[this.kind.ref.idColumn] as number;
      await tx.manager.softDelete(this.kind.ref.entity, id);
      await tx.manager.update(
        Customer,
        { customer_id: method.customer_id, [this.kind.defaultColumn]: id },
        { [this.kind.defaultColumn]: null, default_paymethod: null },
      );
      const noun = this.kind.noun;
      await this.deps.revisions.record(
        tx,
        ctx,
        this.kind.ref.resource,
        id,
        `${noun[0].toUpperCase()}${noun.slice(1)} deleted`,
      );
    });
    return true;
  }

  /** The customer's own method, for paying or setting the default; 400 naming the field otherwise. */
  async owned(m: EntityManager, customerId: number, id: number, field: string): Promise<T> {
    const method = await m.findOne(this.kind.ref.entity, { where: { [this.kind.ref.idColumn]: id } as never });
    if (!method || method.customer_id !== customerId) {
      throw ApiError.badRequest(`Field "${field}": customer ${customerId} has no ${this.kind.noun} with id ${id}.`);
    }
    return method;
  }
}
