import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ZERO } from 'src/core/money/decimal';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { newRecordStamps } from 'src/core/context/record-stamps';
import { Tx } from 'src/database/unit-of-work';
import { Transaction } from './entities/transaction.entity';

/** The columns a writer decides; the rest (stamps, date, currency, brand) are filled here. */
export type NewTransaction = Pick<
  Transaction,
  'customer_id' | 'transaction_type' | 'amount' | 'status_str' | 'gateway_status'
> &
  Partial<Omit<Transaction, 'transaction_id' | 'token' | 'write_datetime' | 'mod_datetime'>>;

/** Inserts transactions with their revision (offline records, charges, refunds). */
@Injectable()
export class TransactionWriter {
  constructor(
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly wire: WireFormat,
  ) {}

  async insert(tx: Tx, ctx: RequestContext, fields: NewTransaction, note: string): Promise<number> {
    const now = this.clock.now();
    const customer = await tx.manager.findOneOrFail(Customer, {
      where: { customer_id: fields.customer_id },
      select: { customer_id: true, currency_id: true, brand_id: true },
    });
    const inserted = await tx.manager.insert(Transaction, {
      gateway_msg: '',
      fee: ZERO,
      currency_id: customer.currency_id,
      brand_id: customer.brand_id,
      transaction_date: DateTime.fromJSDate(now, { zone: this.wire.timezone }).toISODate() ?? '',
      transaction_datetime: now,
      transaction_ipaddr: ctx.onBehalfAddr ?? ctx.ip,
      ...fields,
      ...newRecordStamps(ctx, now),
    });
    const id = (inserted.identifiers[0] as { transaction_id: number }).transaction_id;
    await this.revisions.record(tx, ctx, 'transaction', id, note);
    return id;
  }
}

/** The `custom_1..5` values a write sent (absent ones untouched). */
export function customValues(dto: object): Record<string, string | null> {
  const values: Record<string, string | null> = {};
  for (let i = 1; i <= 5; i++) {
    const value = (dto as Record<string, string | null | undefined>)[`custom_${i}`];
    if (value !== undefined) values[`custom_${i}`] = value;
  }
  return values;
}
