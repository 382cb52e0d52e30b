import { createTestApp, TestApp } from './support/test-app';

describe('health (/healthz, /readyz)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    if (!t.dataSource.isInitialized) await t.dataSource.initialize();
    await t.close();
  });

  it('/healthz answers 200 without a credential', async () => {
    const res = await t.http.get('/healthz').expect(200);
    expect(res.body.response).toEqual({ status: 'ok' });
  });

  it('/readyz is 200 with the database up and migrated', async () => {
    const res = await t.http.get('/readyz').expect(200);
    expect(res.body.response.status).toBe('ok');
    expect(res.body.response.info.database.status).toBe('up');
    expect(res.body.response.info.migrations.status).toBe('up');
  });

  it('/readyz is 503 naming the database while it is unreachable, 200 again when it returns', async () => {
    await t.dataSource.destroy();
    const down = await t.http.get('/readyz').expect(503);
    expect(down.body).toMatchObject({ code: 503, status: 'Error', response: false });
    expect(down.body.message).toContain('database');
    expect(down.body.details.error.database.status).toBe('down');

    await t.dataSource.initialize();
    const up = await t.http.get('/readyz').expect(200);
    expect(up.body.response.info.database.status).toBe('up');
  });
});
