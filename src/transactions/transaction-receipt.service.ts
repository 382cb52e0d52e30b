import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Contact } from 'src/customers/entities/contact.entity';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { formatAmount } from 'src/core/money/money-format';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { UnitOfWork } from 'src/database/unit-of-work';
import { MailTemplates } from 'src/mail/mail-templates';
import { MailService } from 'src/mail/mail.service';
import { ReferenceService } from 'src/reference/reference.service';
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
    private readonly templates: MailTemplates,
    private readonly revisions: RevisionService,
    private readonly reference: ReferenceService,
    private readonly wire: WireFormat,
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
    const symbol = this.reference.currency(t.currency_id)?.currency_symbol ?? '';
    const message = this.templates.render(failed ? 'payment-failure' : 'payment-receipt', {
      kind,
      kindLower: kind.toLowerCase(),
      id: t.transaction_id,
      amount: formatAmount(symbol, t.amount),
      date: t.transaction_date,
      method: [t.transaction_method, t.transaction_detail].filter(Boolean).join(' '),
      reason: t.gateway_msg,
      statementUrl: this.wire.pageUrl(`r/statement/i/${customer.token}`),
      paymethodUrl: this.wire.pageUrl(`r/paymethod/i/${customer.token}`),
    });
    const subject = dto.subject ?? message.subject;
    const text = dto.body ?? message.text;
    // A caller's own text replaces the default HTML too, so the two parts agree.
    const html = dto.html ?? (dto.body === undefined ? message.html : undefined);
    await this.uow.run(async (tx) => {
      if (ctx.sendEmails) {
        await this.mail.send(tx, {
          to,
          cc: split(dto.cc),
          bcc: split(dto.bcc),
          from: dto.from,
          subject,
          text,
          html,
          contextStr: 'transaction',
          contextId: t.transaction_id,
        });
      }
      await this.revisions.record(tx, ctx, 'transaction', t.transaction_id, 'Receipt e-mailed');
    });
    return true;
  }
}
