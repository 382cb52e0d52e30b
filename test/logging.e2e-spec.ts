import { Logger } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { currentScope, scopeTrackingOn } from 'src/database/call-scope';
import { UnitOfWork } from 'src/database/unit-of-work';
import { AppLogger } from 'src/ops/logging/app-logger';
import { RequestLogMiddleware } from 'src/ops/logging/request-log.middleware';
import { captureOutput } from './support/secret-scan';
import { API_PASS, AUTH, createTestApp, TestApp } from './support/test-app';
import { startReceiver, WebhookReceiver } from './support/webhook-receiver';

/** The JSON lines the request logger wrote (other output skipped). */
function jsonLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('structured request logs', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({ LOG_LEVEL: 'verbose', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  });
  afterAll(async () => {
    if (!t.dataSource.isInitialized) await t.dataSource.initialize();
    await t.close();
    await receiver.close();
  });

  it('logs one JSON line per request with id, username, route, status and duration; echoes X-Request-Id', async () => {
    const capture = captureOutput();
    const given = await t.get('/api/v3/customer/424242').set('X-Request-Id', 'trace-abc.1').expect(404);
    const generated = await t.get('/api/v3/terms').expect(200);
    const lines = jsonLines(capture.stop());

    expect(given.headers['x-request-id']).toBe('trace-abc.1');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // At LOG_LEVEL=verbose a request also has its debug line 'request received'.
    const line = lines.find(
      (l) => (l.req as { id?: string } | undefined)?.id === 'trace-abc.1' && l.msg === 'request completed',
    );
    expect(line).toMatchObject({
      level: 30,
      username: 'test-integration',
      route: '/api/v3/customer/:ref',
      res: { statusCode: 404 },
      responseTime: expect.any(Number),
    });
    expect(lines.some((l) => (l.req as { id?: string } | undefined)?.id === generated.headers['x-request-id'])).toBe(
      true,
    );
  });

  it('never logs a password, card number, CVV, webhook secret or security token', async () => {
    const capture = captureOutput();
    const customerId = (await t.post('/api/v3/customer', { company: 'Log Scan' }).expect(201)).body.response.id;
    const card = { number: '4111111111111111', cvv: '987', expdate_year: 2029, expdate_month: 7, name: 'Log Scan' };
    await t.post('/api/v3/creditcard', { customer_id: customerId, ...card }).expect(201);
    const password = 'Contact-Pass-Wort-77';
    await t
      .post('/api/v3/user', { customer_id: customerId, first_name: 'Lo', email: 'lo@example.com', password })
      .expect(201);
    const hook = await t.post('/api/v3/_resthook', { target_url: receiver.url, event: 'customer.*' }).expect(201);
    await t.put(`/api/v3/customer/${customerId}`, { company: 'Log Scan 2' }).expect(202);
    await t.drainJobs();
    const output = capture.stop();

    expect(receiver.received.length).toBeGreaterThan(0);
    const token = receiver.received[0].body.security_token;
    expect(jsonLines(output).length).toBeGreaterThan(4);
    for (const secret of [card.number, password, hook.body.response.secret, token, API_PASS, AUTH.slice(6)]) {
      expect(output).not.toContain(secret);
    }
    // The CVV as a JSON value: bare digits also turn up in the lines' epoch-ms times.
    expect(output).not.toMatch(/"cvv"|"987"/);
  });

  it('names the request id as the error id of a 500', async () => {
    await t.dataSource.destroy();
    const res = await t.get('/api/v3/customer').set('X-Request-Id', 'req-500-check').expect(500);
    expect(res.body.message).toBe('An internal error occurred (error id req-500-check).');
    expect(res.headers['x-request-id']).toBe('req-500-check');
  });
});

describe('log lines written inside a request', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'verbose' });
    // As main.ts does: Nest's Logger writes through the application's pino logger.
    t.app.useLogger(t.app.get(AppLogger));
  });
  afterAll(async () => {
    if (!t.dataSource.isInitialized) await t.dataSource.initialize();
    await t.close();
  });

  it('of a write name their own request, inside its unit of work too, with two requests in flight at once', async () => {
    const logger = new Logger('Test');
    const middleware = t.app.get(RequestLogMiddleware);
    const unitOfWork = t.app.get(UnitOfWork);
    // Each request waits for the other before its unit of work, so both units are asked for
    // together (one write group runs them both) and their lines interleave.
    let arrived = 0;
    let bothIn!: () => void;
    const together = new Promise<void>((resolve) => (bothIn = resolve));
    const server: Server = createServer((req, res) =>
      middleware.use(req as never, res as never, () => {
        const name = String(req.headers['x-request-id']);
        void (async () => {
          logger.log(`before ${name}`);
          if (++arrived === 2) bothIn();
          await together;
          await unitOfWork.run(async (tx) => {
            await tx.manager.query('SELECT 1');
            logger.log(`inside ${name}`);
          });
          logger.warn(`after ${name}`);
          res.end();
        })();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const capture = captureOutput();
      await Promise.all(['req-one', 'req-two'].map((id) => request(url).post('/').set('X-Request-Id', id).expect(200)));
      const lines = jsonLines(capture.stop()).filter((l) => l.context === 'Test');

      expect(lines).toHaveLength(6);
      for (const line of lines) {
        const id = (line.req as { id?: string } | undefined)?.id;
        expect(`${String(line.msg).split(' ')[0]} ${String(id)}`).toBe(String(line.msg));
        expect(['req-one', 'req-two']).toContain(id);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('of a read carry no request and switch no call scope on; a write switches it on until it ends', async () => {
    const logger = new Logger('Test');
    const middleware = t.app.get(RequestLogMiddleware);
    const seen: Record<string, { tracking: boolean; origin: boolean }> = {};
    const server: Server = createServer((req, res) =>
      middleware.use(req as never, res as never, () => {
        void (async () => {
          await Promise.resolve();
          logger.log(`inside ${req.method ?? ''}`);
          seen[req.method ?? ''] = { tracking: scopeTrackingOn(), origin: currentScope()?.origin === req };
          res.end();
        })();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const capture = captureOutput();
      await request(url).get('/').set('X-Request-Id', 'req-read').expect(200);
      await request(url).post('/').set('X-Request-Id', 'req-write').expect(200);
      const lines = jsonLines(capture.stop()).filter((l) => l.context === 'Test');

      expect(seen).toEqual({ GET: { tracking: false, origin: false }, POST: { tracking: true, origin: true } });
      expect(lines.find((l) => l.msg === 'inside GET')).not.toHaveProperty('req');
      expect(lines.find((l) => l.msg === 'inside POST')).toMatchObject({ req: { id: 'req-write', method: 'POST' } });
      // The write's scope closed with its response: reads after it pay for no promise hook.
      expect(scopeTrackingOn()).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('names the request on the error line of a 500, and writes no request beside a line outside one', async () => {
    const capture = captureOutput();
    new Logger('Test').log('outside any request');
    await t.dataSource.destroy();
    await t.get('/api/v3/customer').set('X-Request-Id', 'req-500-line').expect(500);
    const lines = jsonLines(capture.stop());

    expect(lines.find((l) => l.msg === 'outside any request')).not.toHaveProperty('req');
    const error = lines.find((l) => l.context === 'Error');
    expect(error).toMatchObject({ level: 50, req: { id: 'req-500-line', method: 'GET', url: '/api/v3/customer' } });
    const ofRequest = lines.filter((l) => (l.req as { id?: string } | undefined)?.id === 'req-500-line');
    expect(ofRequest.map((l) => l.msg as string).filter((m) => !m.startsWith('['))).toEqual([
      'request received', // debug: LOG_LEVEL=verbose
      'request errored',
    ]);
    expect(ofRequest).toHaveLength(3);
  });
});

describe('log levels and refusals (issue 41)', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  async function appAt(level: string): Promise<TestApp> {
    const app = await createTestApp({ LOG_LEVEL: level });
    app.app.useLogger(app.app.get(AppLogger)); // as main.ts does
    apps.push(app);
    return app;
  }

  it('writes debug lines at LOG_LEVEL=debug (a request arriving, a job done, a mail), none at info', async () => {
    const write = async (t: TestApp): Promise<Array<Record<string, unknown>>> => {
      const capture = captureOutput();
      const customer = (await t.post('/api/v3/customer', { company: 'Debugged', superuser_email: 'd@example.com' }))
        .body.response.id as number;
      const user = (await t.get(`/api/v3/customer/${customer}`)).body.response.superuser_id as number;
      await t.post(`/api/v3/user/${user}?action=password`, {}).expect(200); // mails a reset link
      await t.drainJobs();
      return jsonLines(capture.stop());
    };
    const debugLines = (await write(await appAt('debug'))).filter((l) => l.level === 20);
    expect(debugLines.find((l) => l.msg === 'request received')).toMatchObject({
      req: { method: 'POST', url: '/api/v3/customer' },
    });
    expect(debugLines.length).toBeGreaterThan(1);
    expect((await write(await appAt('info'))).filter((l) => l.level === 20)).toEqual([]);
  });

  it('logs a 4xx with its reason, never its body or a credential', async () => {
    const t = await appAt('info');
    const capture = captureOutput();
    const body = { company: 'Refused', colour: 'secret-body-value', password: 'Body-Pass-Wort-99' };
    const refused = await t.post('/api/v3/customer', body).set('X-Request-Id', 'req-400-reason').expect(400);
    await t.http.get('/api/v3/customer').set('X-Request-Id', 'req-401-reason').set('Authorization', 'Basic eDp5');
    const card = await t
      .post('/api/v3/creditcard', { customer_id: 999999, number: '4111111111111111', cvv: '321' })
      .set('X-Request-Id', 'req-card');
    const output = capture.stop();
    const lines = jsonLines(output);
    const lineOf = (id: string) => lines.find((l) => (l.req as { id?: string } | undefined)?.id === id);

    expect(lineOf('req-400-reason')).toMatchObject({
      level: 30,
      res: { statusCode: 400 },
      reason: refused.body.message as string,
    });
    expect(String(lineOf('req-400-reason')?.reason)).toMatch(/colour|password/);
    expect(lineOf('req-401-reason')).toMatchObject({ res: { statusCode: 401 }, reason: expect.any(String) });
    expect(lineOf('req-card')).toMatchObject({ res: { statusCode: card.status }, reason: card.body.message as string });
    for (const secret of [
      'secret-body-value',
      'Body-Pass-Wort-99',
      '4111111111111111',
      API_PASS,
      AUTH.slice(6),
      'eDp5',
    ]) {
      expect(output).not.toContain(secret);
    }
    // A 2xx has no reason.
    expect(
      lines.filter((l) => (l.res as { statusCode: number } | undefined)?.statusCode === 200 && 'reason' in l),
    ).toEqual([]);
  });
});
