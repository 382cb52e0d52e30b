import 'reflect-metadata';
import Decimal from 'decimal.js';
import { Column, DataSource, DeleteDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { bindNumbersOnSqlite } from './sqlite-number-binding';
import { EntityReader } from './entity-reader';
import * as insertReturning from './insert-returning';
import { insertRow } from './insert-row';
import { queryRows } from './raw-query';
import { isUniqueViolation } from './unique-violation';

@Entity('owner')
class Owner {
  @PrimaryGeneratedColumn({ type: 'int' }) owner_id: number;
  @Column({ type: 'varchar', length: 64 }) name: string;
  @DeleteDateColumn({ type: 'datetime', nullable: true }) deleted_datetime: Date | null;
}

@Entity('account')
class Account {
  @PrimaryGeneratedColumn({ type: 'int' }) account_id: number;
  @Column({ type: 'varchar', length: 64, nullable: true }) company: string | null;
  @Index({ unique: true }) @Column({ type: 'varchar', length: 16, nullable: true }) code: string | null;
  @Column({ type: 'int', nullable: true }) owner_id: number | null;
  @Column({ type: 'boolean', default: false }) no_taxes: boolean;
  @Column({ type: 'varchar', length: 16, default: 'email' }) delivery: string;
  @Column(AMOUNT) balance: Decimal;
  @Column({ type: 'simple-json', nullable: true }) tags: string[] | null;
  @Column({ type: 'datetime' }) write_datetime: Date;
  @DeleteDateColumn({ type: 'datetime', nullable: true }) deleted_datetime: Date | null;
}

type AccountWithOwner = Account & { owner?: Owner | null };

describe('EntityReader and insertRow', () => {
  let dataSource: DataSource;
  let reader: EntityReader<AccountWithOwner>;

  beforeEach(async () => {
    dataSource = bindNumbersOnSqlite(
      new DataSource({
        type: 'better-sqlite3',
        database: ':memory:',
        entities: [Owner, Account],
        synchronize: true,
        logging: false,
      }),
    );
    await dataSource.initialize();
    reader = new EntityReader<AccountWithOwner>(dataSource, {
      entity: Account,
      alias: 'a',
      joins: [{ property: 'owner', entity: Owner, alias: 'o', on: 'o.owner_id = a.owner_id' }],
    });
  });

  afterEach(() => dataSource.destroy());

  const when = new Date('2026-03-08T08:30:15.250Z');

  it('insertRow writes the given values through the column transformers and returns the new id', async () => {
    const m = dataSource.manager;
    const first = await insertRow(m, Account, {
      company: 'Acme',
      balance: new Decimal('1234.5'),
      tags: ['a', 'b'],
      no_taxes: true,
      write_datetime: when,
    });
    const second = await insertRow(m, Account, { balance: new Decimal(0), write_datetime: when });
    expect(second).toBe(first + 1);

    const stored = await m.findOneByOrFail(Account, { account_id: first });
    expect(stored.company).toBe('Acme');
    expect(stored.balance.toFixed(2)).toBe('1234.50');
    expect(stored.tags).toEqual(['a', 'b']);
    expect(stored.no_taxes).toBe(true);
    expect(stored.write_datetime.toISOString()).toBe(when.toISOString());
    // Not given: the column defaults.
    const defaults = await m.findOneByOrFail(Account, { account_id: second });
    expect(defaults.no_taxes).toBe(false);
    expect(defaults.delivery).toBe('email');
    expect(defaults.company).toBeNull();
  });

  it('insertRow ignores properties that are not columns and skips undefined values', async () => {
    const m = dataSource.manager;
    const id = await insertRow(m, Account, {
      company: undefined,
      balance: new Decimal('1'),
      write_datetime: when,
      not_a_column: 'x',
    } as never);
    expect((await m.findOneByOrFail(Account, { account_id: id })).company).toBeNull();
  });

  it('reads exactly what TypeORM reads, with the joined entity on its property', async () => {
    const m = dataSource.manager;
    const ownerId = await insertRow(m, Owner, { name: 'Olga' });
    const id = await insertRow(m, Account, {
      company: 'Acme',
      owner_id: ownerId,
      balance: new Decimal('-0.05'),
      tags: ['vip'],
      no_taxes: true,
      write_datetime: when,
    });
    const viaTypeorm = await m
      .createQueryBuilder(Account, 'a')
      .leftJoinAndMapOne('a.owner', Owner, 'o', 'o.owner_id = a.owner_id')
      .where('a.account_id = :id', { id })
      .getOneOrFail();
    const viaReader = await reader.one(m, { where: 'a.account_id = :id', params: { id } });

    expect(viaReader).toBeInstanceOf(Account);
    expect(viaReader?.owner).toBeInstanceOf(Owner);
    expect(viaReader).toEqual(viaTypeorm);
    expect(viaReader?.balance).toBeInstanceOf(Decimal);
    expect(viaReader?.write_datetime).toBeInstanceOf(Date);
    expect(viaReader?.owner?.name).toBe('Olga');
  });

  it('leaves out soft-deleted rows, and a soft-deleted or missing joined row reads as null', async () => {
    const m = dataSource.manager;
    const ownerId = await insertRow(m, Owner, { name: 'Gone' });
    await m.softDelete(Owner, ownerId);
    const withGoneOwner = await insertRow(m, Account, {
      owner_id: ownerId,
      balance: new Decimal(0),
      write_datetime: when,
    });
    const withoutOwner = await insertRow(m, Account, { balance: new Decimal(0), write_datetime: when });
    const deleted = await insertRow(m, Account, { balance: new Decimal(0), write_datetime: when });
    await m.softDelete(Account, deleted);

    const rows = await reader.many(m, { tail: 'ORDER BY a.account_id' });
    expect(rows.map((row) => row.account_id)).toEqual([withGoneOwner, withoutOwner]);
    expect(rows.map((row) => row.owner)).toEqual([null, null]);
    expect(await reader.one(m, { where: 'a.account_id = :id', params: { id: deleted } })).toBeNull();
    const withDeleted = await reader.one(m, {
      where: 'a.account_id = :id',
      params: { id: deleted },
      withDeleted: true,
    });
    expect(withDeleted?.account_id).toBe(deleted);
  });

  it('manyWithExtras selects trusted expressions after the entities, with their own parameters', async () => {
    const m = dataSource.manager;
    const ownerId = await insertRow(m, Owner, { name: 'Ann' });
    const first = await insertRow(m, Account, {
      owner_id: ownerId,
      company: 'A',
      balance: new Decimal('1.50'),
      write_datetime: when,
    });
    const second = await insertRow(m, Account, { company: 'B', balance: new Decimal(0), write_datetime: when });

    const rows = await reader.manyWithExtras(
      m,
      {
        where: 'a.company IN (:...companies)',
        tail: 'ORDER BY a.account_id',
        params: { companies: ['A', 'B'], tag: 'x' },
      },
      ['(SELECT COUNT(*) FROM owner o2 WHERE o2.owner_id = a.owner_id)', ':tag || a.company'],
    );
    expect(rows.map((row) => row.extras)).toEqual([
      [1, 'xA'],
      [0, 'xB'],
    ]);
    // The entities read exactly as `many` reads them.
    expect(rows.map((row) => row.entity)).toEqual(await reader.many(m, { tail: 'ORDER BY a.account_id' }));
    expect(rows.map((row) => row.entity.account_id)).toEqual([first, second]);
    expect(rows[0].entity.owner?.name).toBe('Ann');
  });

  it('loads only the listed columns of a joined entity (and its key), as a plain object, and refuses an unknown one', async () => {
    const m = dataSource.manager;
    const ownerId = await insertRow(m, Owner, { name: 'Olga' });
    const id = await insertRow(m, Account, { owner_id: ownerId, balance: new Decimal(0), write_datetime: when });
    const narrow = new EntityReader<AccountWithOwner>(dataSource, {
      entity: Account,
      alias: 'a',
      joins: [{ property: 'owner', entity: Owner, alias: 'o', on: 'o.owner_id = a.owner_id', columns: ['name'] }],
    });
    const row = await narrow.one(m, { where: 'a.account_id = :id', params: { id } });
    // Exactly those keys, no entity: a partial row is nothing to save.
    expect(row?.owner).toStrictEqual({ owner_id: ownerId, name: 'Olga' });
    expect(row?.company).toBeNull();

    const wrong = new EntityReader<AccountWithOwner>(dataSource, {
      entity: Account,
      alias: 'a',
      joins: [{ property: 'owner', entity: Owner, alias: 'o', on: 'o.owner_id = a.owner_id', columns: ['nmae'] }],
    });
    await expect(wrong.many(m)).rejects.toThrow('Owner has no column nmae');
  });

  it('loads only the listed columns of the main entity (and its key), as TypeORM reads them, as a plain object', async () => {
    const m = dataSource.manager;
    const id = await insertRow(m, Account, { company: 'Narrow', balance: new Decimal('12.30'), write_datetime: when });
    const narrow = new EntityReader<Account>(dataSource, { entity: Account, alias: 'a', columns: ['balance'] });
    const row = await narrow.one(m, { where: 'a.account_id = :id', params: { id } });
    const full = await m.findOneByOrFail(Account, { account_id: id });
    expect(row).toStrictEqual({ account_id: id, balance: full.balance });
    expect(row?.balance.toFixed(2)).toBe('12.30');

    const wrong = new EntityReader<Account>(dataSource, { entity: Account, alias: 'a', columns: ['balanse'] });
    await expect(wrong.many(m)).rejects.toThrow('Account has no column balanse');
  });

  describe('insert', () => {
    afterEach(() => jest.restoreAllMocks());

    async function insertedAndReadBack(): Promise<[AccountWithOwner, AccountWithOwner | null]> {
      const m = dataSource.manager;
      const ownerId = await insertRow(m, Owner, { name: 'Olga' });
      const inserted = await reader.insert(m, {
        company: 'Acme',
        owner_id: ownerId,
        balance: new Decimal('12.3'),
        tags: ['vip'],
        write_datetime: when,
      });
      return [inserted, await reader.one(m, { where: 'a.account_id = :id', params: { id: inserted.account_id } })];
    }

    it.each([
      ['with INSERT ... RETURNING', true],
      ['with an insert and a read by id (MySQL)', false],
    ])('returns the new row as a read hydrates it, column defaults included (%s)', async (_name, returning) => {
      const asked = jest.spyOn(insertReturning, 'supportsInsertReturning').mockResolvedValue(returning);
      const [inserted, readBack] = await insertedAndReadBack();
      expect(asked).toHaveBeenCalled();
      expect(inserted).toBeInstanceOf(Account);
      expect(inserted.balance).toBeInstanceOf(Decimal);
      expect(inserted).toMatchObject({ company: 'Acme', no_taxes: false, delivery: 'email', tags: ['vip'] });
      expect(inserted.write_datetime.toISOString()).toBe(when.toISOString());
      // Everything but the joined entity, which the caller knows (a read loads it).
      expect(inserted).not.toHaveProperty('owner');
      const { owner, ...readColumns } = readBack as AccountWithOwner;
      expect(owner?.name).toBe('Olga');
      expect(inserted).toEqual(Object.assign(new Account(), readColumns));
    });

    it('answers a duplicate with a recognisable unique violation and writes nothing', async () => {
      const m = dataSource.manager;
      await reader.insert(m, { code: 'A1', balance: new Decimal(0), write_datetime: when });
      const duplicate = await reader
        .insert(m, { code: 'A1', balance: new Decimal(0), write_datetime: when })
        .catch((error: unknown) => error);
      expect(isUniqueViolation(duplicate)).toBe(true);
      expect(await m.count(Account)).toBe(1);
    });
  });

  it('fails as TypeORM does: a duplicate is a recognisable unique violation, bad SQL a query error', async () => {
    const m = dataSource.manager;
    await insertRow(m, Account, { code: 'A1', balance: new Decimal(0), write_datetime: when });
    const duplicate = await insertRow(m, Account, { code: 'A1', balance: new Decimal(0), write_datetime: when }).catch(
      (error: unknown) => error,
    );
    expect(isUniqueViolation(duplicate)).toBe(true);
    await expect(queryRows(m, 'SELECT nope FROM account')).rejects.toThrow('no such column');
  });

  it('binds values: a hostile string is data, never SQL', async () => {
    const m = dataSource.manager;
    const hostile = "x' OR 1=1; DROP TABLE account; --";
    await insertRow(m, Account, { company: hostile, balance: new Decimal(0), write_datetime: when });
    await insertRow(m, Account, { company: 'other', balance: new Decimal(0), write_datetime: when });
    const found = await reader.many(m, { where: 'a.company = :company', params: { company: hostile } });
    expect(found.map((row) => row.company)).toEqual([hostile]);
    expect(await m.count(Account)).toBe(2);
  });
});
