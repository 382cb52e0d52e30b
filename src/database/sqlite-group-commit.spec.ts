import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';
import { performance } from 'node:perf_hooks';
import { CommitOutcomeUnknown } from './commit-outcome';
import { MAX_GROUP_MS, MAX_GROUP_UNITS, SqliteGroupCommit } from './sqlite-group-commit';

/** A real in-memory SQLite through TypeORM, with one table and a count of top-level COMMITs. */
async function setUp(): Promise<{ ds: DataSource; writer: SqliteGroupCommit; commits: () => number }> {
  const ds = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
  await ds.initialize();
  await ds.query('CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const runner = ds.createQueryRunner();
  const query = jest.spyOn(runner, 'query');
  const writer = new SqliteGroupCommit(() => ds.createQueryRunner());
  return { ds, writer, commits: () => query.mock.calls.filter(([sql]) => sql === 'COMMIT').length };
}

const insert = (manager: EntityManager, id: number): Promise<unknown> =>
  manager.query('INSERT INTO note (id, body) VALUES (?, ?)', [id, `note ${id}`]);

async function ids(ds: DataSource): Promise<number[]> {
  const rows: Array<{ id: number }> = await ds.query('SELECT id FROM note ORDER BY id');
  return rows.map((r) => r.id);
}

describe('SqliteGroupCommit', () => {
  let ds: DataSource;
  // The group's time cap reads performance.now(): held still here, so a slow moment of the
  // machine (a cold first query under a loaded CI) cannot split a group a test expects
  // whole. The time-cap test moves it itself.
  beforeEach(() => {
    jest.spyOn(performance, 'now').mockReturnValue(1_000);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await ds.destroy();
  });

  /** The next top-level COMMIT fails; `endsIt`: SQLite ended the transaction itself first. */
  function failNextCommit(endsIt: boolean, code: string): void {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the runner as `this` below
    const commit = BetterSqlite3QueryRunner.prototype.commitTransaction;
    jest.spyOn(BetterSqlite3QueryRunner.prototype, 'commitTransaction').mockImplementation(async function (
      this: BetterSqlite3QueryRunner,
    ) {
      if (this.transactionDepth > 1) return commit.call(this);
      if (endsIt)
        (
          this.connection.driver as unknown as { databaseConnection: { exec(sql: string): void } }
        ).databaseConnection.exec('ROLLBACK');
      throw Object.assign(new Error(`${code}: the commit failed`), { code });
    });
  }

  it('fails the units of a COMMIT that SQLite ended itself with CommitOutcomeUnknown', async () => {
    const t = await setUp();
    ds = t.ds;
    failNextCommit(true, 'SQLITE_IOERR_FSYNC');
    const both = [1, 2].map((id) => t.writer.run((m) => insert(m, id)));
    for (const unit of both) await expect(unit).rejects.toBeInstanceOf(CommitOutcomeUnknown);
    jest.restoreAllMocks();
    // The connection is usable again.
    await t.writer.run((m) => insert(m, 3));
    expect(await ids(ds)).toEqual([3]);
  });

  it('fails the units of a COMMIT refused with the transaction still open with that error: known undone', async () => {
    const t = await setUp();
    ds = t.ds;
    failNextCommit(false, 'SQLITE_BUSY');
    await expect(t.writer.run((m) => insert(m, 1))).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    jest.restoreAllMocks();
    await t.writer.run((m) => insert(m, 2));
    expect(await ids(ds)).toEqual([2]);
  });

  it('commits a lone write at once, with its result', async () => {
    const t = await setUp();
    ds = t.ds;
    await expect(t.writer.run(async (m) => (await insert(m, 1), 'done'))).resolves.toBe('done');
    expect(t.commits()).toBe(1);
    expect(await ids(ds)).toEqual([1]);
  });

  it('commits writes that queue up together, in the order they came', async () => {
    const t = await setUp();
    ds = t.ds;
    const order: number[] = [];
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((id) => t.writer.run(async (m) => (order.push(id), await insert(m, id), id))),
    );
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(t.commits()).toBe(1);
    expect(await ids(ds)).toEqual([1, 2, 3, 4, 5]);
  });

  it('rolls a failing write back alone: the others of its group commit', async () => {
    const t = await setUp();
    ds = t.ds;
    const outcomes = await Promise.allSettled([
      t.writer.run((m) => insert(m, 1)),
      t.writer.run(async (m) => {
        await insert(m, 2);
        throw new Error('invalid input');
      }),
      t.writer.run((m) => insert(m, 3)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('invalid input'));
    expect(await ids(ds)).toEqual([1, 3]);
    expect(t.commits()).toBe(1);
  });

  it('fails every write of a group whose COMMIT fails, keeps none of them, and goes on with the next group', async () => {
    const t = await setUp();
    ds = t.ds;
    const runner = ds.createQueryRunner();
    const realCommit = Object.getPrototypeOf(runner) as { commitTransaction(this: unknown): Promise<void> };
    // Two savepoint releases pass; the third call, the group's COMMIT, fails once.
    let calls = 0;
    jest.spyOn(runner, 'commitTransaction').mockImplementation(() => {
      calls++;
      return calls === 3 ? Promise.reject(new Error('disk I/O error')) : realCommit.commitTransaction.call(runner);
    });

    const outcomes = await Promise.allSettled([t.writer.run((m) => insert(m, 1)), t.writer.run((m) => insert(m, 2))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toEqual(new Error('disk I/O error'));
    expect(await ids(ds)).toEqual([]);
    expect(runner.isTransactionActive).toBe(false);

    await expect(t.writer.run((m) => insert(m, 3))).resolves.toBeDefined();
    expect(await ids(ds)).toEqual([3]);
  });

  it('abandons the whole group when a failed write cannot be rolled back, and goes on with the next group', async () => {
    const t = await setUp();
    ds = t.ds;
    const runner = ds.createQueryRunner();
    jest.spyOn(runner, 'rollbackTransaction').mockRejectedValueOnce(new Error('disk I/O error'));
    const outcomes = await Promise.allSettled([
      t.writer.run((m) => insert(m, 1)),
      t.writer.run(async (m) => {
        await insert(m, 2);
        throw new Error('invalid input');
      }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toEqual(
      new Error('A write failed and could not be rolled back.'),
    );
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('invalid input'));
    expect(await ids(ds)).toEqual([]);
    expect(runner.isTransactionActive).toBe(false);

    await t.writer.run((m) => insert(m, 3));
    expect(await ids(ds)).toEqual([3]);
  });

  it(`puts at most ${MAX_GROUP_UNITS} writes under one COMMIT`, async () => {
    const t = await setUp();
    ds = t.ds;
    const count = MAX_GROUP_UNITS + 5;
    await Promise.all(Array.from({ length: count }, (_, i) => t.writer.run((m) => insert(m, i + 1))));
    expect(t.commits()).toBe(2);
    expect(await ids(ds)).toHaveLength(count);
  });

  it(`starts a new group once one has been open ${MAX_GROUP_MS} ms, so a slow write delays few others`, async () => {
    const t = await setUp();
    ds = t.ds;
    let now = 1_000;
    const clock = jest.spyOn(performance, 'now').mockImplementation(() => now);
    await Promise.all([
      t.writer.run(async (m) => {
        await insert(m, 1);
        now += MAX_GROUP_MS; // a slow write
      }),
      t.writer.run((m) => insert(m, 2)),
      t.writer.run((m) => insert(m, 3)),
    ]);
    clock.mockRestore();
    expect(t.commits()).toBe(2);
    expect(await ids(ds)).toEqual([1, 2, 3]);
  });

  it('holds the write lock from BEGIN: another process committing between a read and a write cannot fail the unit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    const file = join(dir, 'shared.sqlite');
    ds = new DataSource({ type: 'better-sqlite3', database: file, enableWAL: true });
    await ds.initialize();
    await ds.query('CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    // The other process: its own connection to the file, giving up on a held lock at once.
    const other = new DataSource({ type: 'better-sqlite3', database: file, enableWAL: true, timeout: 1 });
    await other.initialize();
    try {
      const writer = new SqliteGroupCommit(() => ds.createQueryRunner());
      let otherOutcome = '';
      await writer.run(async (m) => {
        await m.query('SELECT COUNT(*) AS n FROM note');
        // With a deferred BEGIN this commit lands, and the write below fails (SQLITE_BUSY_SNAPSHOT).
        otherOutcome = await other.query("INSERT INTO note (id, body) VALUES (99, 'other')").then(
          () => 'committed',
          (error: { driverError?: { code?: string } }) => error.driverError?.code ?? 'failed',
        );
        await insert(m, 1);
      });
      expect(otherOutcome).toBe('SQLITE_BUSY');
      expect(await ids(ds)).toEqual([1]);
    } finally {
      await other.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
