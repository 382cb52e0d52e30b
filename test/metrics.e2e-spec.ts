import { AUTH, createTestApp, TestApp } from './support/test-app';

/**
 * One sample line of the Prometheus text format: name, optional labels, a number (NaN and
 * Inf in any case, as Prometheus reads them: prom-client writes an empty summary's mean as "Nan").
 */
const SAMPLE =
  /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*",?)*\})? (-?[0-9.e+-]+|[Nn][Aa][Nn]|[+-]?[Ii]nf)$/;
const COMMENT = /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/;

function expectPrometheusText(text: string): void {
  const bad = text
    .split('\n')
    .filter((line) => line !== '')
    .filter((line) => !SAMPLE.test(line) && !COMMENT.test(line));
  expect(bad).toEqual([]);
}

function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('/metrics', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('needs the API credential', async () => {
    const res = await t.http.get('/metrics').expect(401);
    expect(res.body.status).toBe('Error');
  });

  it('is Prometheus text whose request counter moves with requests', async () => {
    const labels = 'method="GET",route="/api/v3/customer/:ref",status="404"';
    const before = await t.http.get('/metrics').set('Authorization', AUTH).expect(200);
    expect(before.headers['content-type']).toContain('text/plain');
    expectPrometheusText(before.text);

    await t.get('/api/v3/customer/999999').expect(404);
    await t.get('/api/v3/customer/999998').expect(404);

    const after = await t.http.get('/metrics').set('Authorization', AUTH).expect(200);
    expectPrometheusText(after.text);
    expect(sample(after.text, 'billing_http_requests_total', labels)).toBe(
      sample(before.text, 'billing_http_requests_total', labels) + 2,
    );
    expect(sample(after.text, 'billing_http_request_duration_seconds_count', labels)).toBeGreaterThanOrEqual(2);
    expect(after.text).toMatch(/^billing_webhook_deliveries\{status="given_up"\} 0$/m);
    expect(after.text).toMatch(/^billing_job_queue_jobs\{state="waiting"\} \d+$/m);
    expect(after.text).toContain('# TYPE billing_rate_limit_refusals_total counter');
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: 'scrape-token-123', RATE_LIMIT_PER_MINUTE: '1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes the bearer token, not the API credential, and counts rate-limit refusals', async () => {
    await t.http.get('/metrics').set('Authorization', AUTH).expect(401);
    await t.http.get('/metrics').set('Authorization', 'Bearer wrong').expect(401);
    await t.get('/api/v3/terms').expect(200);
    await t.get('/api/v3/terms').expect(429);
    const res = await t.http.get('/metrics').set('Authorization', 'Bearer scrape-token-123').expect(200);
    expect(res.text).toMatch(/^billing_rate_limit_refusals_total 1$/m);
    if (process.env.DB_TYPE === 'mysql')
      expect(res.text).toMatch(/^billing_db_pool_connections\{state="open"\} [1-9]/m);
  });
});
