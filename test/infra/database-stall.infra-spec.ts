import { StallProxy } from '../support/stall-proxy';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * MariaDB behind a proxy the test stalls (this file always runs on MariaDB, whatever
 * DB_TYPE the rest of the suite uses): requests fail fast with a 503 naming the database,
 * nothing runs after its client was told it failed, and the server heals by itself.
 */
/** An app on MariaDB through a stall proxy, with `env`; `close` ends both and restores DB_TYPE. */
async function stalledApp(
  env: Record<string, string>,
): Promise<{ proxy: StallProxy; t: TestApp; close: () => Promise<void> }> {
  const dbTypeBefore = process.env.DB_TYPE;
  const proxy = await StallProxy.start(Number(process.env.DB_PORT ?? 3306));
  process.env.DB_TYPE = 'mysql';
  const t = await createTestApp({ DB_TYPE: 'mysql', DB_PORT: String(proxy.port), ...env });
  return {
    proxy,
    t,
    close: async () => {
      proxy.resume();
      await t.close();
      await proxy.close();
      if (dbTypeBefore === undefined) delete process.env.DB_TYPE;
      else process.env.DB_TYPE = dbTypeBefore;
    },
  };
}

describe('a stalled database', () => {
  const STATEMENT_TIMEOUT_MS = 1_500;
  let proxy: StallProxy;
  let t: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ proxy, t, close } = await stalledApp({
      DB_CONNECT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    }));
  });
  afterAll(() => close());

  const unavailable = {
    code: 503,
    status: 'Error',
    message: 'The database is not answering. Please retry shortly.',
    details: {},
    response: false,
  };
  const count = async () => (await t.get('/api/v3/customer/_count').expect(200)).body.response as number;

  it('answers 503 within the statement timeout while stalled, runs nothing late, and recovers without a restart', async () => {
    await t.post('/api/v3/customer', { company: 'Before the stall' }).expect(201);
    expect(await count()).toBe(1);

    proxy.pause();
    for (const send of [
      () => t.get('/api/v3/customer'),
      () => t.post('/api/v3/customer', { company: 'During the stall' }),
      () => t.get('/api/v3/customer/1'),
    ]) {
      const started = Date.now();
      const res = await send();
      expect(res.status).toBe(503);
      expect(res.body).toEqual(unavailable);
      expect(Date.now() - started).toBeLessThan(2 * STATEMENT_TIMEOUT_MS + 1_000);
    }

    proxy.resume();
    // The first requests after the stall may still meet a connection that timed out; the
    // server heals within a few statement timeouts, without a restart.
    const healedBy = Date.now() + 4 * STATEMENT_TIMEOUT_MS;
    let status = 0;
    while (Date.now() < healedBy && status !== 200) status = (await t.get('/api/v3/customer')).status;
    expect(status).toBe(200);
    await t.post('/api/v3/customer', { company: 'After the stall' }).expect(201);
    // The create its client was told had failed never ran.
    const names = (await t.get('/api/v3/customer').expect(200)).body.response.map(
      (c: { company: string }) => c.company,
    );
    expect(names.sort()).toEqual(['After the stall', 'Before the stall']);
  });
});

/**
 * Every request has a deadline (REQUEST_TIMEOUT_MS, issue 43 item 2): with statements
 * allowed far longer, a stalled database still gets each request answered 503 by its
 * deadline (plus a second), whether it waited for a connection, a group or a statement, and
 * a write answered so is absent afterwards.
 */
describe('a stalled database and the request deadline', () => {
  const REQUEST_TIMEOUT_MS = 2_500;
  let proxy: StallProxy;
  let t: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ proxy, t, close } = await stalledApp({
      DB_STATEMENT_TIMEOUT_MS: '10000',
      DB_CONNECT_TIMEOUT_MS: '10000',
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    }));
  });
  afterAll(() => close());

  it('answers 8 clients 503 by the deadline, reads and writes, and keeps none of the writes', async () => {
    await t.post('/api/v3/customer', { company: 'Before the deadline stall' }).expect(201);
    proxy.pause();
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? t.post('/api/v3/customer', { company: `Stalled ${i}` }) : t.get('/api/v3/customer')).then(
          (res) => ({ status: res.status, ms: Date.now() - started }),
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503, 503, 503, 503]);
    for (const answer of answers) expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000);

    proxy.resume();
    const healedBy = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < healedBy && status !== 200) status = (await t.get('/api/v3/customer/_count')).status;
    expect(status).toBe(200);
    const names = (await t.get('/api/v3/customer').expect(200)).body.response.map(
      (c: { company: string }) => c.company,
    );
    expect(names).toEqual(['Before the deadline stall']);
  }, 60_000);
});
