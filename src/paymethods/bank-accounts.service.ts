import { Injectable } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { assertExternalKeyFree } from 'src/core/refs/external-key';
import { RefTarget } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { modStamps, newRecordStamps } from 'src/core/context/record-stamps';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { maskBankAccount } from './aba-routing';
import { CheckedBankAccount, checkBankAccount } from './bank-account-input';
import { BankAccountFieldsDto, CreateBankAccountDto } from './dto/bank-account-fields.dto';
import { AchAccount } from './entities/ach-account.entity';
import { requireCustomer } from './paymethod-owner';
import { PaymethodStore } from './paymethod-store';
import { PaymethodPresenter } from './paymethod.presenter';
import { BANK_ACCOUNT_QUERY_FIELDS } from './paymethod.query-fields';
import { WireBankAccount } from './wire-paymethod';

export const BANK_ACCOUNT_REF: RefTarget<AchAccount> = { entity: AchAccount, idColumn: 'ach_id', resource: 'ach' };

@Injectable()
export class BankAccountsService {
  private readonly methods: PaymethodStore<AchAccount, WireBankAccount>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly gateway: PaymentGateway,
    private readonly presenter: PaymethodPresenter,
    private readonly wire: WireFormat,
  ) {
    this.methods = new PaymethodStore<AchAccount, WireBankAccount>(
      {
        ref: BANK_ACCOUNT_REF,
        queryFields: BANK_ACCOUNT_QUERY_FIELDS,
        defaultColumn: 'default_ach_id',
        noun: 'bank account',
        present: (row) => this.presenter.bankAccount(row),
      },
      { dataSource, uow, revisions, wire },
    );
  }

  async create(ctx: RequestContext, dto: CreateBankAccountDto, body: Record<string, unknown>): Promise<number> {
    const account = checkBankAccount(dto);
    const payer = await requireCustomer(this.dataSource.manager, body);
    const gatewayToken = await this.gateway.tokenizeBankAccount(outsideUnit('a bank account tokenized'), account, {
      customerId: payer,
      name: dto.name,
    });
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

  findOne(ref: string): Promise<WireBankAccount> {
    return this.methods.findOne(ref);
  }

  list(query: Record<string, unknown>): Promise<WireBankAccount[]> {
    return this.methods.list(query);
  }

  count(query: Record<string, unknown>): Promise<number> {
    return this.methods.count(query);
  }

  remove(ctx: RequestContext, ref: string): Promise<true> {
    return this.methods.remove(ctx, ref);
  }

  /** The customer's own bank account, for paying or setting the default; 400 naming the field otherwise. */
  ownedAccount(m: EntityManager, customerId: number, id: number, field = 'ach_id'): Promise<AchAccount> {
    return this.methods.owned(m, customerId, id, field);
  }
}
