import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { applyListQuery, applyWhere } from 'src/core/query';
import { assertExternalKeyFree } from 'src/core/refs/external-key';
import { findByPathRef, RefTarget } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { modStamps, newRecordStamps } from 'src/database/record-stamps';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { maskBankAccount } from './aba-routing';
import { CheckedBankAccount, checkBankAccount } from './bank-account-input';
import { BankAccountFieldsDto, CreateBankAccountDto } from './dto/bank-account-fields.dto';
import { AchAccount } from './entities/ach-account.entity';
import { requireCustomer } from './paymethod-owner';
import { PaymethodPresenter } from './paymethod.presenter';
import { BANK_ACCOUNT_QUERY_FIELDS } from './paymethod.query-fields';

export const BANK_ACCOUNT_REF: RefTarget<AchAccount> = { entity: AchAccount, idColumn: 'ach_id', resource: 'ach' };

@Injectable()
export class BankAccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly gateway: PaymentGateway,
    private readonly presenter: PaymethodPresenter,
    private readonly wire: WireFormat,
  ) {}

  async create(ctx: RequestContext, dto: CreateBankAccountDto, body: Record<string, unknown>): Promise<number> {
    const account = checkBankAccount(dto);
    const gatewayToken = await this.gateway.tokenizeBankAccount(account);
    return this.uow.run(async (tx) => {
      const customerId = await requireCustomer(tx.manager, body);
      return this.store(tx, ctx, customerId, account, gatewayToken, dto);
    });
  }

  /** Stores a checked account; the same routing number and last four digits again updates it. */
  async store(
    tx: Tx,
    ctx: RequestContext,
    customerId: number,
    account: CheckedBankAccount,
    gatewayToken: string,
    extras: Pick<BankAccountFieldsDto, 'name' | 'bank'> & { external_key?: string | null },
  ): Promise<number> {
    const m = tx.manager;
    const now = this.clock.now();
    const existing = await m.findOne(AchAccount, {
      where: { customer_id: customerId, routing: account.routing, last4: account.last4, deleted_datetime: IsNull() },
    });
    const columns = {
      type: account.type,
      mask_number: maskBankAccount(account.number),
      ...(extras.name !== undefined ? { name: extras.name } : {}),
      ...(extras.bank !== undefined ? { bank: extras.bank } : {}),
      gateway_token: gatewayToken,
    };
    if (existing) {
      await assertExternalKeyFree(m, AchAccount, 'ach_id', extras.external_key, 'ach', existing.ach_id);
      await m.update(AchAccount, existing.ach_id, {
        ...columns,
        ...(extras.external_key !== undefined ? { external_key: extras.external_key } : {}),
        ...modStamps(ctx, now),
      });
      await this.revisions.record(tx, ctx, 'ach', existing.ach_id, 'Bank account updated');
      return existing.ach_id;
    }
    await assertExternalKeyFree(m, AchAccount, 'ach_id', extras.external_key, 'ach');
    const inserted = await m.insert(AchAccount, {
      ...columns,
      external_key: extras.external_key ?? null,
      customer_id: customerId,
      routing: account.routing,
      last4: account.last4,
      ...newRecordStamps(ctx, now),
    });
    const id = (inserted.identifiers[0] as { ach_id: number }).ach_id;
    await this.revisions.record(tx, ctx, 'ach', id, 'Bank account added');
    return id;
  }

  async findOne(ref: string): Promise<Record<string, unknown>> {
    return this.presenter.bankAccount(await findByPathRef(this.dataSource.manager, BANK_ACCOUNT_REF, ref));
  }

  async list(query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    const qb = this.dataSource.manager.createQueryBuilder(AchAccount, 'pm');
    applyListQuery(qb, BANK_ACCOUNT_QUERY_FIELDS, query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 'pm.ach_id', dir: 'ASC' },
    });
    return (await qb.getMany()).map((a) => this.presenter.bankAccount(a));
  }

  async count(query: Record<string, unknown>): Promise<number> {
    const qb = this.dataSource.manager.createQueryBuilder(AchAccount, 'pm');
    return applyWhere(qb, BANK_ACCOUNT_QUERY_FIELDS, query.where, this.wire.timezone).getCount();
  }

  async remove(ctx: RequestContext, ref: string): Promise<true> {
    await this.uow.run(async (tx) => {
      const account = await findByPathRef(tx.manager, BANK_ACCOUNT_REF, ref);
      await tx.manager.softDelete(AchAccount, account.ach_id);
      await tx.manager.update(
        Customer,
        { customer_id: account.customer_id, default_ach_id: account.ach_id },
        { default_ach_id: null, default_paymethod: null },
      );
      await this.revisions.record(tx, ctx, 'ach', account.ach_id, 'Bank account deleted');
    });
    return true;
  }

  async ownedAccount(m: EntityManager, customerId: number, id: number, field = 'ach_id'): Promise<AchAccount> {
    const account = await m.findOne(AchAccount, { where: { ach_id: id } });
    if (!account || account.customer_id !== customerId) {
      throw ApiError.badRequest(`Field "${field}": customer ${customerId} has no bank account with id ${id}.`);
    }
    return account;
  }
}
