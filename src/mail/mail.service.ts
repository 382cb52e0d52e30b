import { Inject, Injectable, Logger } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { assertOutsideUnitOfWork } from 'src/database/outside-call-guard';
import { Tx } from 'src/database/unit-of-work';
import { MailMessage } from './entities/mail-message.entity';

export interface OutgoingMail {
  to: string[];
  cc?: string[];
  bcc?: string[];
  from?: string;
  subject: string;
  text: string;
  html?: string;
  contextStr?: string;
  contextId?: number;
}

/**
 * Sends mail through nodemailer (SMTP when SMTP_URL is set) and records every message.
 * The record is written in the caller's transaction; the message leaves only after commit.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl) : createTransport({ jsonTransport: true });
  }

  /** Records the message in the caller's transaction (its id is returned) and sends it after commit. */
  async send(tx: Tx, mail: OutgoingMail): Promise<number> {
    const from = mail.from ?? this.config.mailFrom;
    const result = await tx.manager.insert(MailMessage, {
      context_str: mail.contextStr ?? null,
      context_id: mail.contextId ?? null,
      to_addr: mail.to.join(', '),
      cc_addr: mail.cc?.join(', ') || null,
      bcc_addr: mail.bcc?.join(', ') || null,
      from_addr: from,
      subject: mail.subject.slice(0, 255),
      body: mail.text,
      status: 'queued',
      write_datetime: this.clock.now(),
    });
    const id = (result.identifiers[0] as { mail_message_id: number }).mail_message_id;
    tx.afterCommit(() => this.deliver(id, { ...mail, from }));
    return id;
  }

  private async deliver(id: number, mail: OutgoingMail & { from: string }): Promise<void> {
    assertOutsideUnitOfWork('mail sending');
    let status = this.config.smtpUrl ? 'sent' : 'recorded';
    try {
      await this.transport.sendMail({
        from: mail.from,
        to: mail.to,
        cc: mail.cc,
        bcc: mail.bcc,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    } catch (error) {
      status = 'failed';
      this.logger.error(`Mail ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    await this.dataSource.getRepository(MailMessage).update(id, { status });
    this.logger.debug(`Mail ${id} ${status}`);
  }
}
