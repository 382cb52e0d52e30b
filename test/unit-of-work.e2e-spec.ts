import Decimal from 'decimal.js';
import { Revision } from 'src/core/revisions/revision.entity';
import { insertRow } from 'src/database/insert-row';
import { isUniqueViolation } from 'src/database/unique-violation';
import { OutsideCallInUnitOfWork } from 'src/database/outside-call-guard';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { TestGateway } from 'src/payments/test-gateway';
import { AccountSecret } from 'src/webhooks/entities/account-secret.entity';
import { createTestApp, TestApp } from './support/test-app';

/**
 * The unit of work's contract (issue 17 point 4), on SQLite and MariaDB: a unit's body
 * runs once whatever its neighbours do, and an outside call inside it is refused.
 */
describe('unit of work runs once', () => {
  let t: TestApp;
  let uow: UnitOfWork;

  beforeAll(async () => {
    t = await createTestApp();
    uow = t.app.get(UnitOfWork);
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

  it('runs each body once when a neighbour queued in the same turn fails', async () => {
    const runs = new Map<string, number>();
    const counted = (name: string) => (tx: Tx) => {
      runs.set(name, (runs.get(name) ?? 0) + 1);
      return note(name)(tx);
    };
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
    const kept = await t.dataSource.manager.findBy(Revision, { context_str: 'uow-test' });
    expect(kept.map((r) => r.revision_note).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
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

  it('refuses a gateway call inside a unit, and the gateway never sees it', async () => {
    const gateway = t.app.get<PaymentGateway, TestGateway>(PaymentGateway);
    const before = gateway.records().length;
    const source = { kind: 'tokenized', gatewayToken: 'cus_inside' } as const;
    await expect(
      uow.run(async (tx) => {
        await note('before the charge')(tx);
        return gateway.charge(source, new Decimal('5.00'), 'inside-a-unit');
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
    expect((await gateway.charge(source, new Decimal('5.00'), 'after-a-unit')).outcome).toBe('success');
  });

  it('runs afterCommit work outside the unit, where an outside call is allowed', async () => {
    const gateway = t.app.get<PaymentGateway, TestGateway>(PaymentGateway);
    let outcome = '';
    await uow.run(async (tx) => {
      await note('with a callback')(tx);
      tx.afterCommit(async () => {
        outcome = (await gateway.lookup('after-a-unit'))?.outcome ?? 'none';
      });
    });
    expect(outcome).toBe('success');
  });
});
