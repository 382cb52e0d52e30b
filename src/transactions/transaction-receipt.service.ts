import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Contact } from 'src/customers/entities/contact.entity';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { centsText } from 'src/core/money/money-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { UnitOfWork } from 'src/database/unit-of-work';
import { MailService } from 'src/mail/mail.service';
import { EmailReceiptDto } from './dto/transaction-actions.dto';
import { TRANSACTION_TYPE_NAMES } from './transaction-kinds';
import { TRANSACTION_REF } from './transactions.service';

const split = (list: string | undefined): string[] | undefined =>
  list === undefined
    ? undefined
    : list
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);

/** `action=email`: a receipt for a payment that went through, a notice for one that failed. */
@Injectable()
export class TransactionReceiptService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly mail: MailService,
    private readonly revisions: RevisionService,
  ) {}

  async send(ctx: RequestContext, ref: string, dto: EmailReceiptDto): Promise<true> {
    const m = this.dataSource.manager;
    const t = await findByPathRef(m, TRANSACTION_REF, ref);
    const customer = await m.findOneOrFail(Customer, { where: { customer_id: t.customer_id } });
    const contact = customer.superuser_id
      ? await m.findOne(Contact, { where: { user_id: customer.superuser_id } })
      : null;
    const to = split(dto.email) ?? (contact?.email ? [contact.email] : []);
    if (!to.length) {
      throw ApiError.badRequest('Field "email": the customer has no e-mail address on file; send one.');
    }
    const failed = t.status_str.startsWith('fail');
    const kind = TRANSACTION_TYPE_NAMES[t.transaction_type];
    const subject = dto.subject ?? (failed ? `${kind} failed` : `${kind} receipt`);
    const text =
      dto.body ??
      (failed
        ? `Your ${kind.toLowerCase()} of ${centsText(t.amount)} could not be processed: ${t.gateway_msg}`
        : `Thank you. ${kind} ${t.transaction_id} of ${centsText(t.amount)} on ${t.transaction_date} (${t.transaction_method ?? ''} ${t.transaction_detail ?? ''}).`);
    await this.uow.run(async (tx) => {
      if (ctx.sendEmails) {
        await this.mail.send(tx, {
          to,
          cc: split(dto.cc),
          bcc: split(dto.bcc),
          from: dto.from,
          subject,
          text,
          html: dto.html,
          contextStr: 'transaction',
          contextId: t.transaction_id,
        });
      }
      await this.revisions.record(tx, ctx, 'transaction', t.transaction_id, 'Receipt e-mailed');
    });
    return true;
  }
}
