import { Process, Processor } from '@nestjs/bull';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { lazyRequire } from 'src/core/lazy/lazy-require';
import { JobOf, JobQueue, JOBS_QUEUE } from 'src/core/jobs/job-queue';
import { insertRow } from 'src/database/insert-row';
import { assertOutsideUnitOfWork, OutsideUnit, outsideUnit } from 'src/database/outside-call-guard';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { MailMessage } from './entities/mail-message.entity';
import { MailTemplates } from './mail-templates';

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

const nodemailer = lazyRequire<typeof import('nodemailer')>('nodemailer');

export const MAIL_DELIVER_JOB = 'mail.deliver';

/**
 * Sends mail through nodemailer (SMTP when SMTP_URL is set) and records every message.
 * The record is written in the caller's transaction as `queued` (the intent); the message
 * leaves only after commit, by whoever claims the row first (`queued` → `sending` in one
 * conditional UPDATE): the caller's after-commit work, the `mail.deliver` job, or the
 * sweeper (MailSweeper) that finds a row whose after-commit work died with its process.
 * So a committed message is never lost before it is claimed, and never sent twice.
 */
@Injectable()
@Processor(JOBS_QUEUE)
export class MailService {
  private readonly logger = new Logger('Mail');
  /** Made by the first message sent: nodemailer is not loaded by a server that sends none. */
  private transportMade?: Transporter;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly jobs: JobQueue,
    private readonly templates: MailTemplates,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get transport(): Transporter {
    const { createTransport } = nodemailer();
    return (this.transportMade ??= this.config.smtpUrl
      ? createTransport(this.config.smtpUrl)
      : createTransport({ jsonTransport: true }));
  }

  /** Records the message in the caller's transaction (its id is returned) and sends it after commit. */
  async send(tx: Tx, mail: OutgoingMail): Promise<number> {
    const from = mail.from ?? this.config.mailFrom;
    const id = await this.record(tx, mail, from);
    tx.afterCommit((outside) => this.deliver(outside, id, { ...mail, from }));
    return id;
  }

  /**
   * Records the message in the caller's transaction and queues its sending as a job after
   * commit: for mail a batch writes (a billing run's invoices), which must not wait for SMTP.
   */
  async queue(tx: Tx, mail: OutgoingMail): Promise<number> {
    const id = await this.record(tx, mail, mail.from ?? this.config.mailFrom);
    tx.afterCommit(() => this.kick(id));
    return id;
  }

  /** Queues the sending of a recorded message (a repeat while it waits is one job). */
  kick(id: number): Promise<void> {
    return this.jobs.enqueue(MAIL_DELIVER_JOB, { mailMessageId: id }, { jobId: `mail-${id}` });
  }

  /** The job `kick` queued: the recorded message sent from its row. */
  @Process(MAIL_DELIVER_JOB)
  async deliverJob(job: JobOf<{ mailMessageId: number }>): Promise<void> {
    try {
      await this.deliverStored(outsideUnit('mail sending'), Number(job.data.mailMessageId));
    } catch (error) {
      // The row stays `queued` and the sweeper tries again; the job itself must not fail.
      this.logger.error(`Mail ${String(job.data.mailMessageId)}: ${errorText(error)}`);
    }
  }

  /** Sends a recorded message from its row, if it is still `queued` (the sweeper's and the job's way). */
  async deliverStored(outside: OutsideUnit, id: number): Promise<void> {
    const row = await this.dataSource.getRepository(MailMessage).findOneBy({ mail_message_id: id });
    if (!row || row.status !== 'queued') return;
    const split = (list: string | null) => (list ? list.split(', ') : undefined);
    await this.deliver(outside, id, {
      to: row.to_addr.split(', '),
      cc: split(row.cc_addr),
      bcc: split(row.bcc_addr),
      from: row.from_addr,
      subject: row.subject,
      text: row.body,
      html: this.templates.html(row.subject, row.body),
    });
  }

  private async record(tx: Tx, mail: OutgoingMail, from: string): Promise<number> {
    return insertRow(tx.manager, MailMessage, {
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
  }

  private async deliver(_outside: OutsideUnit, id: number, mail: OutgoingMail & { from: string }): Promise<void> {
    assertOutsideUnitOfWork('mail sending');
    if (!(await this.claim(id))) return;
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
      this.logger.error(`Mail ${id} failed: ${errorText(error)}`);
    }
    await this.uow.run((tx) => tx.manager.update(MailMessage, id, { status }));
    this.logger.debug(`Mail ${id} ${status}`);
  }

  /**
   * `queued` → `sending`, true for the one caller that changed it. A process that dies while
   * sending leaves `sending`: never sent again, since whether it left cannot be known.
   */
  private async claim(id: number): Promise<boolean> {
    const result = await this.uow.run((tx) =>
      tx.manager
        .createQueryBuilder()
        .update(MailMessage)
        .set({ status: 'sending' })
        .where('mail_message_id = :id AND status = :queued', { id, queued: 'queued' })
        .execute(),
    );
    return result.affected === 1;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
