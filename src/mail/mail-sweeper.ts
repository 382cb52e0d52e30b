import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { DueWork } from 'src/core/schedule/due-work';
import { MailMessage } from './entities/mail-message.entity';
import { MailService } from './mail.service';

const SWEEP_BATCH = 500;
/** A message younger than this is left to the after-commit work of the process that recorded it. */
const GRACE_MS = 60_000;

/**
 * Queues the sending of every message still `queued` a minute after it was recorded: one
 * whose after-commit work was lost with a dead process (a crash between the COMMIT and the
 * send). Due work, checked every 10 s (and as the test clock moves); the claim in
 * MailService makes a message found twice one message sent.
 */
@Injectable()
@DueWork()
export class MailSweeper implements DueWork {
  readonly name = 'mail.sweep';
  readonly trigger = { kind: 'interval', everyMs: 10_000 } as const;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly mail: MailService,
  ) {}

  async runDue(): Promise<void> {
    await this.sweep();
  }

  /** Queues the forgotten messages; returns how many. */
  async sweep(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - GRACE_MS);
    const rows = await this.dataSource
      .getRepository(MailMessage)
      .createQueryBuilder('m')
      .select('m.mail_message_id')
      .where('m.status = :queued', { queued: 'queued' })
      .andWhere('m.write_datetime <= :before', { before })
      .orderBy('m.mail_message_id', 'ASC')
      .limit(SWEEP_BATCH)
      .getMany();
    for (const row of rows) await this.mail.kick(row.mail_message_id);
    return rows.length;
  }
}
