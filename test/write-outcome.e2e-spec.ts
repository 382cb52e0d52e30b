import { MysqlQueryRunner } from 'typeorm/driver/mysql/MysqlQueryRunner';
import { AUTH, createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/**
 * An answer never lies about a write (issue 43, item 1), on MariaDB (this file always runs
 * there, whatever DB_TYPE the rest of the suite uses: SQLite commits in-process and always
 * knows how a COMMIT ended). A COMMIT whose answer is lost is a 503 with
 * `details.outcome: "unknown"`, and a retry with the same Idempotency-Key learns what became
 * of it: run once, never twice.
 */
describe('the outcome of a write whose COMMIT went unanswered', () => {
  let t: TestApp;
  const dbTypeBefore = process.env.DB_TYPE;

  beforeAll(async () => {
    process.env.DB_TYPE = 'mysql';
    t = await createTestApp({ DB_TYPE: 'mysql' });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
    if (dbTypeBefore === undefined) delete process.env.DB_TYPE;
    else process.env.DB_TYPE = dbTypeBefore;
  });

  const post = (key: string, company: string) =>
    t.http.post('/api/v3/customer').set('Authorization', AUTH).set('Idempotency-Key', key).send({ company });
  const count = async (company: string): Promise<number> =>
    (await t.get(`/api/v3/customer/_count?where=company:EQUALS:${encodeURIComponent(company)}`).expect(200)).body
      .response as number;
  /**
   * The answer of the request's second COMMIT (its write; the first is the claim of its key)
   * is lost, the connection dead: after the COMMIT ran when `lands`, before it otherwise.
   */
  const loseWriteCommitAnswer = (lands: boolean) => {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the runner as `this` below
    const commit = MysqlQueryRunner.prototype.commitTransaction;
    jest
      .spyOn(MysqlQueryRunner.prototype, 'commitTransaction')
      .mockImplementationOnce(async function (this: MysqlQueryRunner) {
        await commit.call(this);
      })
      .mockImplementationOnce(async function (this: MysqlQueryRunner) {
        if (lands) await commit.call(this);
        throw Object.assign(new Error('Connection lost: The server closed the connection.'), {
          code: 'PROTOCOL_CONNECTION_LOST',
        });
      });
  };
  /** Retries with the key until the answer is no longer "still running" (the key is settled in the background). */
  const retryUntilSettled = async (key: string, company: string) => {
    for (let n = 0; n < 50; n++) {
      const res = await post(key, company);
      if (!(res.status === 409 && /still running/.test(res.body.message as string))) return res;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the key was never settled');
  };
  const unknown = {
    code: 503,
    status: 'Error',
    message:
      'The database did not confirm this write: it may or may not have been stored. Retry with the same Idempotency-Key to learn its outcome (without one, read before retrying).',
    details: { outcome: 'unknown' },
    response: false,
  };

  it('says the outcome is unknown when the COMMIT landed, and a retry learns it was stored (nothing runs twice)', async () => {
    loseWriteCommitAnswer(true);
    const first = await post('outcome-landed', 'Landed Co');
    expect({ status: first.status, body: first.body as Json }).toEqual({ status: 503, body: unknown });
    expect(await count('Landed Co')).toBe(1);

    const retry = await retryUntilSettled('outcome-landed', 'Landed Co');
    expect(retry.status).toBe(409);
    expect(retry.body.details).toEqual({ outcome: 'stored' });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await count('Landed Co')).toBe(1);
  });

  it('says the outcome is unknown when the COMMIT never ran, and a retry with the key runs it once', async () => {
    loseWriteCommitAnswer(false);
    const first = await post('outcome-lost', 'Lost Co');
    expect({ status: first.status, body: first.body as Json }).toEqual({ status: 503, body: unknown });
    expect(await count('Lost Co')).toBe(0);

    const retry = await retryUntilSettled('outcome-lost', 'Lost Co');
    expect(retry.status).toBe(201);
    expect(await count('Lost Co')).toBe(1);
    const again = await post('outcome-lost', 'Lost Co').expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await count('Lost Co')).toBe(1);
  });
});
