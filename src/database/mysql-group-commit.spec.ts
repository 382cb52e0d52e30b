import { EntityManager, QueryRunner } from 'typeorm';
import { MAX_MYSQL_GROUP_UNITS, MysqlGroupCommit } from './mysql-group-commit';

/**
 * A stand-in for TypeORM's query runner that keeps, per transaction, the rows written,
 * and keeps them only when that transaction commits: the writer's bookkeeping is what
 * is under test here (the e2e suite runs it on MariaDB).
 */
class FakeDatabase {
  readonly committed: string[] = [];
  readonly log: string[] = [];
  failCommit = false;
  failRollback = false;
  private nextRunner = 0;

  runner(): QueryRunner {
    const name = `r${++this.nextRunner}`;
    const written: string[] = [];
    const manager = { write: (row: string) => written.push(row) } as unknown as EntityManager;
    let active = false;
    return {
      manager,
      get isTransactionActive() {
        return active;
      },
      startTransaction: () => {
        this.log.push(`${name} START`);
        active = true;
        return Promise.resolve();
      },
      commitTransaction: () => {
        this.log.push(`${name} COMMIT`);
        if (this.failCommit) return Promise.reject(new Error('connection lost during COMMIT'));
        active = false;
        this.committed.push(...written);
        return Promise.resolve();
      },
      rollbackTransaction: () => {
        this.log.push(`${name} ROLLBACK`);
        if (this.failRollback) return Promise.reject(new Error('connection lost'));
        active = false;
        written.length = 0;
        return Promise.resolve();
      },
      release: () => {
        this.log.push(`${name} release`);
        return Promise.resolve();
      },
    } as unknown as QueryRunner;
  }

  starts(): number {
    return this.log.filter((line) => line.endsWith('START')).length;
  }
}

const write = (manager: EntityManager, row: string): void => {
  (manager as unknown as { write(row: string): void }).write(row);
};

/** A write of `row` that counts its runs in `attempts`; the write of "b" fails. */
const countedWrite = (attempts: Record<string, number>) => (row: string) => (m: EntityManager) => {
  attempts[row]++;
  write(m, row);
  return row === 'b' ? Promise.reject(new Error('invalid b')) : Promise.resolve(row);
};

function setUp(): { db: FakeDatabase; writer: MysqlGroupCommit } {
  const db = new FakeDatabase();
  return { db, writer: new MysqlGroupCommit(() => db.runner()) };
}

describe('MysqlGroupCommit', () => {
  it('runs a lone write in a transaction of its own, with its result', async () => {
    const { db, writer } = setUp();
    await expect(writer.run((m) => Promise.resolve((write(m, 'a'), 'done')))).resolves.toBe('done');
    expect(db.log).toEqual(['r1 START', 'r1 COMMIT', 'r1 release']);
    expect(db.committed).toEqual(['a']);
  });

  it('runs the writes queued in one turn one after another in one transaction, under one COMMIT', async () => {
    const { db, writer } = setUp();
    const order: string[] = [];
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((row) =>
        writer.run(async (m) => {
          order.push(`${row} begins`);
          await new Promise((resolve) => setImmediate(resolve)); // a round trip
          write(m, row);
          order.push(`${row} ends`);
          return row.toUpperCase();
        }),
      ),
    );
    expect(results).toEqual(['A', 'B', 'C', 'D']);
    expect(order).toEqual(['a begins', 'a ends', 'b begins', 'b ends', 'c begins', 'c ends', 'd begins', 'd ends']);
    expect(db.log).toEqual(['r1 START', 'r1 COMMIT', 'r1 release']);
    expect(db.committed).toEqual(['a', 'b', 'c', 'd']);
  });

  it(`puts at most ${MAX_MYSQL_GROUP_UNITS} writes in a group; the next group runs beside it`, async () => {
    const { db, writer } = setUp();
    const count = MAX_MYSQL_GROUP_UNITS + 3;
    await Promise.all(Array.from({ length: count }, (_, i) => writer.run((m) => Promise.resolve(write(m, `${i}`)))));
    expect(db.starts()).toBe(2);
    expect(db.log.slice(0, 2)).toEqual(['r1 START', 'r2 START']); // the second did not wait for the first
    expect(db.committed.length).toBe(count);
  });

  it('when a write fails, rolls the group back and runs each write again alone: only the failing one fails', async () => {
    const { db, writer } = setUp();
    const attempts: Record<string, number> = { a: 0, b: 0, c: 0 };
    const unit = countedWrite(attempts);
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((row) => writer.run(unit(row))));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('invalid b'));
    // The group ran a and b (c never began), then each ran again in its own transaction.
    expect(attempts).toEqual({ a: 2, b: 2, c: 1 });
    expect(db.log.slice(0, 3)).toEqual(['r1 START', 'r1 ROLLBACK', 'r1 release']);
    expect(db.starts()).toBe(4);
    expect(db.committed.sort()).toEqual(['a', 'c']);
  });

  it('runs a runOnce write at once in a transaction of its own, outside the group, and never again', async () => {
    const { db, writer } = setUp();
    const attempts: Record<string, number> = { a: 0, b: 0, refund: 0 };
    const unit = countedWrite(attempts);
    const grouped = ['a', 'b'].map((row) => writer.run(unit(row)));
    const once = writer.runOnce(unit('refund'));
    const outcomes = await Promise.allSettled([...grouped, once]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(attempts).toEqual({ a: 2, b: 2, refund: 1 });
    expect(db.log[0]).toBe('r1 START'); // the runOnce write began before the group's turn
    expect(db.committed.sort()).toEqual(['a', 'refund']);
  });

  it('fails every write of the group when the COMMIT fails, and runs none again (it may have taken effect)', async () => {
    const { db, writer } = setUp();
    db.failCommit = true;
    let attempts = 0;
    const outcomes = await Promise.allSettled(
      ['a', 'b'].map((row) => writer.run((m) => Promise.resolve((attempts++, write(m, row))))),
    );
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toContain('COMMIT');
    expect(attempts).toBe(2);
    expect(db.starts()).toBe(1);
  });

  it('fails every write of the group when the rollback fails too, and runs none again', async () => {
    const { db, writer } = setUp();
    db.failRollback = true;
    let attempts = 0;
    const outcomes = await Promise.allSettled([
      writer.run(() => Promise.resolve(attempts++)),
      writer.run(() => (attempts++, Promise.reject(new Error('invalid')))),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(attempts).toBe(2);
    expect(db.starts()).toBe(1);
    expect(db.log).toContain('r1 release');
  });

  it('releases the connection of a lone write that fails, and passes its error on', async () => {
    const { db, writer } = setUp();
    await expect(writer.run(() => Promise.reject(new Error('not found')))).rejects.toThrow('not found');
    expect(db.log).toEqual(['r1 START', 'r1 ROLLBACK', 'r1 release']);
  });
});
