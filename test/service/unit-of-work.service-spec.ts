import Decimal from 'decimal.js';
import { performance } from 'node:perf_hooks';
import { DueWorkScheduler } from 'src/core/schedule/due-work-scheduler';
import { Revision } from 'src/core/revisions/revision.entity';
import { insertAtCommit } from 'src/database/deferred-inserts';
import { insertRow } from 'src/database/insert-row';
import { isUniqueViolation } from 'src/database/unique-violation';
import { OutsideCallInUnitOfWork, OutsideUnit, outsideUnit } from 'src/database/outside-call-guard';
import { fastPath } from 'src/database/fast-paths';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { TestGateway } from 'src/payments/test-gateway';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { UsagePull } from 'src/usage/usage-pull';
import { postPinned } from 'src/webhooks/delivery/pinned-post';
import { VettedTarget } from 'src/webhooks/delivery/target-url-guard';
import { AccountSecret } from 'src/webhooks/entities/account-secret.entity';
import { In } from 'typeorm';
import { itWithFastPaths } from '../support/fast-paths';
import { createServiceApp, ServiceApp } from '../support/service-app';

/**
 * The unit of work's contract (issue 17 point 4), on SQLite and MariaDB: a unit's body
 * runs once whatever its neighbours do, and an outside call inside it is refused.
 */
describe('unit of work runs once', () => {
  let t: ServiceApp;
  let uow: UnitOfWork;

  beforeAll(async () => {
    t = await createServiceApp();
    uow = t.app.get(UnitOfWork);
    // Background due work (the webhook sweeper's tick) would open transactions of its own.
    t.app.get(DueWorkScheduler).stop();
    await t.drainJobs();
  });
  afterAll(async () => {
    await t.close();
  });

  const note = (text: string) => (tx: Tx) =>
    insertRow(tx.manager, Revision, {
      context_str: 'uow-test',
      context_id: 1,
      revision_datetime: new Date(),
      revision_note: text,
    });

  /** Bodies that write a note and count their runs by name. */
  function countedRuns() {
    const runs = new Map<string, number>();
    const counted = (name: string) => (tx: Tx) => {
      runs.set(name, (runs.get(name) ?? 0) + 1);
      return note(name)(tx);
    };
    return { runs, counted };
  }

  it('runs each body once when a neighbour queued in the same turn fails', async () => {
    const transactions = jest.spyOn(t.dataSource, 'createQueryRunner');
    // The group's 20 ms cap reads performance.now(): held still, so a slow moment of a loaded
    // machine cannot close the group early.
    const held = jest.spyOn(performance, 'now').mockReturnValue(performance.now());
    const { runs, counted } = countedRuns();
    const outcomes = await Promise.allSettled([
      ...['a', 'b', 'c'].map((name) => uow.run(counted(name))),
      uow.run(async (tx) => {
        await note('failing')(tx);
        throw new Error('this unit fails');
      }),
      ...['d', 'e', 'f'].map((name) => uow.run(counted(name))),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(Object.fromEntries(runs)).toEqual({ a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 });
    // They shared one transaction (group commit), the failing one undone to its savepoint;
    // with group commit off (DB_FAST_PATHS), a transaction each.
    held.mockRestore();
    expect(transactions).toHaveBeenCalledTimes(fastPath('group-commit') ? 1 : 7);
    transactions.mockRestore();
    const kept = await t.dataSource.manager.findBy(Revision, { context_str: 'uow-test' });
    expect(kept.map((r) => r.revision_note).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('undoes only the first unit of a group when it fails; the units after it run once and are kept', async () => {
    const transactions = jest.spyOn(t.dataSource, 'createQueryRunner');
    const held = jest.spyOn(performance, 'now').mockReturnValue(performance.now());
    const { runs, counted } = countedRuns();
    const outcomes = await Promise.allSettled([
      uow.run(async (tx) => {
        await note('first, failing')(tx);
        throw new Error('the first unit fails');
      }),
      ...['g', 'h'].map((name) => uow.run(counted(name))),
    ]);
    held.mockRestore();
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(Object.fromEntries(runs)).toEqual({ g: 1, h: 1 });
    expect(transactions).toHaveBeenCalledTimes(fastPath('group-commit') ? 1 : 3);
    transactions.mockRestore();
    const kept = await t.dataSource.manager.findBy(Revision, { context_str: 'uow-test' });
    expect(
      kept
        .map((r) => r.revision_note)
        .filter((n) => ['first, failing', 'g', 'h'].includes(n))
        .sort(),
    ).toEqual(['g', 'h']);
  });

  it('fails only the unit that hits a duplicate key in a shared transaction; neighbours run once', async () => {
    await uow.run((tx) => tx.manager.insert(AccountSecret, { name: 'uow-taken', value: 'first' }));
    const runs = { before: 0, after: 0 };
    const outcomes = await Promise.allSettled([
      uow.run((tx) => (runs.before++, note('before the duplicate')(tx))),
      uow.run((tx) => tx.manager.insert(AccountSecret, { name: 'uow-taken', value: 'second' })),
      uow.run((tx) => (runs.after++, note('after the duplicate')(tx))),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(isUniqueViolation((outcomes[1] as PromiseRejectedResult).reason)).toBe(true);
    expect(runs).toEqual({ before: 1, after: 1 });
    const notes = await t.dataSource.manager.findBy(Revision, { context_str: 'uow-test' });
    expect(notes.filter((r) => r.revision_note.endsWith('the duplicate')).length).toBe(2);
    const kept = await t.dataSource.getRepository(AccountSecret).findOneByOrFail({ name: 'uow-taken' });
    expect(kept.value).toBe('first');
  });

  itWithFastPaths('group-commit')("runs afterCommit work only once the group's COMMIT is done", async () => {
    const seen = { first: -1, later: -1 };
    const count = (revision_note: string) => t.dataSource.manager.countBy(Revision, { revision_note });
    const managers: unknown[] = [];
    await Promise.all([
      uow.run(async (tx) => {
        managers.push(tx.manager);
        await note('written first in the group')(tx);
        tx.afterCommit(async () => {
          seen.first = await count('written first in the group');
          seen.later = await count('written later in the group');
        });
      }),
      uow.run(async (tx) => {
        managers.push(tx.manager);
        await note('written later in the group')(tx);
      }),
    ]);
    // Read outside the transaction: the unit's own row is there, so its COMMIT preceded the callback...
    expect(seen.first).toBe(1);
    // ...and so is the later unit's, when both shared the group's transaction (on a loaded
    // host the first unit may outlast MAX_MYSQL_GROUP_MS and the later one start the next group).
    if (managers[0] === managers[1]) expect(seen.later).toBe(1);
  });

  it('answers a key that stays taken with the unique violation itself, not a conflict', async () => {
    const secret = (value: string) => (tx: Tx) => tx.manager.insert(AccountSecret, { name: 'uow-test-key', value });
    await uow.run(secret('first'));
    const refused = await uow.run(secret('second')).catch((error: unknown) => error);
    // Insert-if-absent writers (the shared webhook token) and the 400 for a taken external
    // key both rely on seeing the database's own duplicate-key error here.
    expect(isUniqueViolation(refused)).toBe(true);
    expect(await t.dataSource.getRepository(AccountSecret).findOneByOrFail({ name: 'uow-test-key' })).toMatchObject({
      value: 'first',
    });
  });

  // A deadlock needs two connections: SQLite has one writer and cannot have one.
  if (process.env.DB_TYPE === 'mysql') {
    it('runs each unit of a group again alone, once, when the database rolls the group back', async () => {
      await t.dataSource.getRepository(AccountSecret).insert([
        { name: 'uow-x', value: '' },
        { name: 'uow-y', value: '' },
      ]);
      const append =
        (name: string, letter: string) => (m: { query: (sql: string, p: unknown[]) => Promise<unknown> }) =>
          m.query('UPDATE account_secret SET value = CONCAT(value, ?) WHERE name = ?', [letter, name]);
      // Another transaction, heavier than the group (InnoDB rolls back the lighter one), holds y.
      const other = t.dataSource.createQueryRunner();
      await other.startTransaction();
      await other.manager.insert(
        Revision,
        Array.from({ length: 50 }, (_, i) => ({
          context_str: 'uow-weight',
          context_id: i,
          revision_datetime: new Date(),
          revision_note: 'weight',
        })),
      );
      await append('uow-y', 'o')(other);
      const runs = { a: 0, b: 0 };
      const committed = { a: 0, b: 0 };
      // One group: a takes x, then b waits for y (the clock of the group's 20 ms cap held
      // still, so that a slow moment cannot close the group after a).
      const held = jest.spyOn(performance, 'now').mockReturnValue(performance.now());
      const a = uow.run(async (tx) => {
        runs.a++;
        await append('uow-x', 'a')(tx.manager);
        tx.afterCommit(() => void committed.a++);
      });
      const b = uow.run(async (tx) => {
        runs.b++;
        // A body that swallows the deadlock and writes on: its write must not run in
        // autocommit once the database has ended the transaction.
        const refused = await append(
          'uow-y',
          'b',
        )(tx.manager).then(
          () => false,
          () => true,
        );
        if (refused) await note('written after the deadlock')(tx);
        tx.afterCommit(() => void committed.b++);
      });
      // Once b is waiting for y, the other transaction asks for x: a deadlock, the group its victim.
      const waitingForY = `SELECT COUNT(*) AS n FROM information_schema.processlist
        WHERE db = DATABASE() AND info LIKE 'UPDATE account_secret%' AND info LIKE '%uow-y%'`;
      while (Number((await t.dataSource.query<Array<{ n: number }>>(waitingForY))[0].n) === 0);
      await append('uow-x', 'o')(other);
      await other.commitTransaction();
      await other.release();
      await Promise.all([a, b]);
      held.mockRestore();

      // The group's run was undone by the database; each unit ran again alone and is kept once.
      expect(runs).toEqual({ a: 2, b: 2 });
      expect(committed).toEqual({ a: 1, b: 1 });
      const values = await t.dataSource.getRepository(AccountSecret).findBy({ name: In(['uow-x', 'uow-y']) });
      expect(Object.fromEntries(values.map((v) => [v.name, v.value]))).toEqual({ 'uow-x': 'oa', 'uow-y': 'ob' });
      expect(await t.dataSource.manager.countBy(Revision, { revision_note: 'written after the deadlock' })).toBe(0);
    });
  }

  itWithFastPaths('group-commit', 'deferred-inserts')(
    "keeps a group's units when the database refuses one unit's deferred row at the group's end",
    async () => {
      const runs = { a: 0, bad: 0, c: 0 };
      const committed = { a: 0, bad: 0, c: 0 };
      // A unit's revision waits for the group's end (one INSERT for every unit's): refused
      // there, the group is undone and each unit runs again alone, where the refused row
      // fails its own unit only.
      const deferred = (name: keyof typeof runs, contextStr: string | null) => async (tx: Tx) => {
        runs[name]++;
        await note(`main write of ${name}`)(tx);
        await insertAtCommit(tx.manager, Revision, {
          context_str: contextStr as string,
          context_id: 1,
          revision_datetime: new Date(),
          revision_note: `deferred row of ${name}`,
        });
        tx.afterCommit(() => void committed[name]++);
      };
      const held = jest.spyOn(performance, 'now').mockReturnValue(performance.now());
      const transactions = jest.spyOn(t.dataSource, 'createQueryRunner');
      const outcomes = await Promise.allSettled([
        uow.run(deferred('a', 'uow-test')),
        // A NULL for a NOT NULL column: both databases refuse it.
        uow.run(deferred('bad', null)),
        uow.run(deferred('c', 'uow-test')),
      ]);
      held.mockRestore();
      // One group, then a transaction of its own for each unit (a group of one on SQLite).
      expect(transactions).toHaveBeenCalledTimes(4);
      transactions.mockRestore();
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(runs).toEqual({ a: 2, bad: 2, c: 2 });
      expect(committed).toEqual({ a: 1, bad: 0, c: 1 });
      const notes = (await t.dataSource.manager.findBy(Revision, { context_id: 1 }))
        .map((r) => r.revision_note)
        .filter((n) => / of (a|bad|c)$/.test(n))
        .sort();
      expect(notes).toEqual(['deferred row of a', 'deferred row of c', 'main write of a', 'main write of c']);
    },
  );

  it('refuses a gateway call inside a unit, and the gateway never sees it', async () => {
    const gateway = t.app.get<PaymentGateway, TestGateway>(PaymentGateway);
    const before = gateway.records().length;
    const source = { kind: 'tokenized', gatewayToken: 'cus_inside' } as const;
    // A capability minted outside and closed over by the body compiles: the run-time guard
    // in every port is the backstop for it.
    const outside = outsideUnit('a test charge');
    await expect(
      uow.run(async (tx) => {
        await note('before the charge')(tx);
        return gateway.charge(outside, source, new Decimal('5.00'), 'USD', 'inside-a-unit');
      }),
    ).rejects.toBeInstanceOf(OutsideCallInUnitOfWork);
    expect(gateway.records().length).toBe(before);
    expect(await t.dataSource.manager.countBy(Revision, { revision_note: 'before the charge' })).toBe(0);
    // The same call after the commit (afterCommit, or after run returns) goes through.
    const after = await uow.run(async (tx) => {
      await note('recorded first')(tx);
      return 'committed';
    });
    expect(after).toBe('committed');
    expect((await gateway.charge(outside, source, new Decimal('5.00'), 'USD', 'after-a-unit')).outcome).toBe('success');
  });

  it("gives a unit's body no capability to call outside, by type (npm run typecheck)", async () => {
    const gateway = t.app.get<PaymentGateway, TestGateway>(PaymentGateway);
    const usage = t.app.get(UsagePull);
    const source = { kind: 'tokenized', gatewayToken: 'cus_typed' } as const;
    const sub = new Subscription();
    const target: VettedTarget = {
      url: new URL('http://127.0.0.1/'),
      hostname: '127.0.0.1',
      address: '127.0.0.1',
      family: 4,
    };
    const post = { timeoutMs: 1, maxBodyChars: 1 };
    const attempts = [
      (tx: Tx) =>
        // @ts-expect-error a unit's Tx is not the OutsideUnit capability a port takes
        gateway.charge(tx, source, new Decimal('5.00'), 'USD', 'typed-inside'),
      // @ts-expect-error no port call without the capability
      () => gateway.lookup('typed-inside'),
      // @ts-expect-error the USAGE_URL pull is a port too
      (tx: Tx) => usage.pull(tx, sub, []),
      // @ts-expect-error webhook deliveries and the usage URL post through postPinned
      (tx: Tx) => postPinned(tx, target, '{}', {}, post),
      (tx: Tx) => {
        // @ts-expect-error nor can a body turn its Tx into one
        const stolen: OutsideUnit = tx;
        return gateway.void(stolen, 'TEST-typed');
      },
    ];
    // And at run time each is refused before it leaves the process: the guard.
    for (const attempt of attempts) {
      await expect(uow.run(async (tx) => attempt(tx))).rejects.toBeInstanceOf(OutsideCallInUnitOfWork);
    }
  });

  it('runs afterCommit work outside the unit, where an outside call is allowed', async () => {
    const gateway = t.app.get<PaymentGateway, TestGateway>(PaymentGateway);
    let outcome = '';
    await uow.run(async (tx) => {
      await note('with a callback')(tx);
      // The callback is handed the capability the body never holds.
      tx.afterCommit(async (outside) => {
        outcome = (await gateway.lookup(outside, 'after-a-unit'))?.outcome ?? 'none';
      });
    });
    expect(outcome).toBe('success');
  });
});
