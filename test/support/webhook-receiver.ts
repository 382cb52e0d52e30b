import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  raw: string;
  body: {
    context_str: string;
    context_id: number | string;
    event: string;
    data: Record<string, unknown>;
    security_token: string;
  };
}

/** A local webhook receiver on 127.0.0.1 that records every POST and answers as told. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Status for the n-th request (1-based); 200 by default. */
  answer: (n: number) => { status: number; body?: string; headers?: Record<string, string> };
  close(): Promise<void>;
}

export async function startReceiver(): Promise<WebhookReceiver> {
  const receiver: Omit<WebhookReceiver, 'url' | 'close'> = { received: [], answer: () => ({ status: 200 }) };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      receiver.received.push({ headers: req.headers, raw, body: JSON.parse(raw) as ReceivedWebhook['body'] });
      const reply = receiver.answer(receiver.received.length);
      res.writeHead(reply.status, { 'Content-Type': 'text/plain', ...reply.headers }).end(reply.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hook`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

/** A receiver's Standard Webhooks check, written from the spec (not from the server's code). */
export function verifyStandardWebhook(secret: string, received: ReceivedWebhook): boolean {
  const id = received.headers['webhook-id'] as string;
  const timestamp = received.headers['webhook-timestamp'] as string;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${received.raw}`).digest();
  const signatures = String(received.headers['webhook-signature']).split(' ');
  return signatures.some((entry) => {
    const [version, value] = entry.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
