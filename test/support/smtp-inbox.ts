import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelopeFrom: string;
  recipients: string[];
  subject: string;
  from: string;
  /** The whole message with quoted-printable undone (enough to read ASCII text and links). */
  content: string;
}

/** Undoes quoted-printable: soft line breaks and =XX escapes. */
function unquote(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function header(raw: string, name: string): string {
  const match = new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'mi').exec(raw);
  return match ? match[1].replace(/\r?\n[ \t]/g, ' ') : '';
}

/** A local SMTP server (smtp-server) that keeps what it receives; `next()` waits for the next message. */
export class SmtpInbox {
  private readonly received: ReceivedMail[] = [];
  private waiters: Array<(mail: ReceivedMail) => void> = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: ReceivedMail = {
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients: session.envelope.rcptTo.map((r) => r.address),
          subject: header(raw, 'Subject'),
          from: header(raw, 'From'),
          content: unquote(raw),
        };
        const waiter = this.waiters.shift();
        if (waiter) waiter(mail);
        else this.received.push(mail);
        callback();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  next(timeoutMs = 10_000): Promise<ReceivedMail> {
    const ready = this.received.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('No mail arrived at the test SMTP server')), timeoutMs);
      this.waiters.push((mail) => {
        clearTimeout(timer);
        resolve(mail);
      });
    });
  }

  /** The messages that arrived and were not taken by `next()` yet; takes them. */
  takeAll(): ReceivedMail[] {
    return this.received.splice(0);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
