import { JobQueue } from 'src/core/jobs/job-queue';
import { BullJobQueue } from 'src/core/jobs/bull-job-queue';
import { JobProbe, JobProbeModule, PROBE_JOB } from '../support/job-probe';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Runs only through `npm run test:redis` (REDIS_URL set): the Bull job driver and the
 * shared Redis rate-limit counters.
 */
const redisUrl = process.env.REDIS_URL;
if (!redisUrl) throw new Error('test:redis needs REDIS_URL, e.g. redis://127.0.0.1:6379');

describe('with Redis', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: redisUrl, RATE_LIMIT_PER_MINUTE: '3' }, { imports: [JobProbeModule] });
  });
  afterAll(async () => {
    await t.close();
  });

  it("uses the Bull job driver and runs a @Processor's jobs through Redis", async () => {
    const queue = t.app.get(JobQueue);
    expect(queue).toBeInstanceOf(BullJobQueue);
    await queue.enqueue(PROBE_JOB, { n: 1 });
    await queue.enqueue(PROBE_JOB, { n: 2 }, { delayMs: 100 });
    await queue.drain();
    expect(t.app.get(JobProbe).seen.map((job) => job.payload)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('keeps the rate-limit counter in Redis and answers 429 past it', async () => {
    for (let i = 0; i < 3; i++) await t.get('/api/v3/terms').expect(200);
    const res = await t.get('/api/v3/customer').expect(429);
    expect(res.body.message).toContain('Rate limit exceeded');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keeps failed sign-ins in Redis as sliding windows: 10 a minute, the 11th waits for the oldest to age', async () => {
    t.clock.set(new Date('2026-11-27T12:00:00Z'));
    const wrong = `Basic ${Buffer.from('test-integration:wrong').toString('base64')}`;
    for (let n = 0; n < 10; n++) {
      await t.http.get('/api/v3/terms').set('Authorization', wrong).expect(401);
      t.clock.advance(3_000);
    }
    // Failures at 0, 3, ..., 27 s; now 30 s: the one at 0 s leaves the last minute 30 s from now.
    const barred = await t.http.get('/api/v3/terms').set('Authorization', wrong).expect(429);
    expect(barred.headers['retry-after']).toBe('30');
    t.clock.advance(30_000);
    // The oldest aged out: one more guess is checked (a fixed window would have let 10 through).
    await t.http.get('/api/v3/terms').set('Authorization', wrong).expect(401);
    await t.http.get('/api/v3/terms').set('Authorization', wrong).expect(429);
  });
});
