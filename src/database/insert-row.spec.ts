import Decimal from 'decimal.js';
import { createConnection } from 'mysql2/promise';
import { randomBytes } from 'node:crypto';
import { Column, DataSource, Entity, Index, PrimaryGeneratedColumn, QueryFailedError } from 'typeorm';
import { RATE } from 'src/core/money/decimal.transformer';
import { insertRow, insertRowsReturningIds, insertRowsStatement, preparedRow } from './insert-row';
import { bindNumbersOnSqlite, sqliteParameter } from './sqlite-number-binding';
import { isUniqueViolation } from './unique-violation';

/** Every kind of value an insert converts: NULLs, dates, decimals, booleans, JSON, a transformer. */
@Entity('insert_row_probe')
class Probe {
  @PrimaryGeneratedColumn({ type: 'int' }) id: number;
  @Index({ unique: true }) @Column({ type: 'varchar', length: 64, nullable: true }) label: string | null;
  @Column({ type: 'datetime', nullable: true }) at: Date | null;
  @Column(RATE) amount: Decimal;
  @Column({ type: 'boolean', default: false }) flag: boolean;
  @Column({ type: 'int', nullable: true }) count: number | null;
  @Column({ type: 'simple-json', nullable: true }) data: { a?: Array<number | string>; b?: string | null } | null;
  @Column({
    type: 'varchar',
    length: 16,
    default: '',
    transformer: { to: (v: string) => v.toUpperCase(), from: (v: string) => v.toLowerCase() },
  })
  code: string;
}

type ProbeValues = Omit<Probe, 'id'>;

const probes = (label: string): ProbeValues[] => [
  {
    label: `${label}-1`,
    at: new Date('2026-11-25T19:30:15Z'),
    amount: new Decimal('1234.5678905'),
    flag: true,
    count: 42,
    data: { a: [1, 'x'], b: null },
    code: 'ab',
  },
  { label: null, at: null, amount: new Decimal('-0.000001'), flag: false, count: null, data: null, code: "it's" },
  { label: `${label}-3`, at: new Date(0), amount: new Decimal(7), flag: false, count: -3, data: {}, code: '' },
];

/** The drivers the app runs on: SQLite always, MySQL/MariaDB when the run is for it (DB_TYPE=mysql). */
const drivers: Array<'better-sqlite3' | 'mysql'> =
  process.env.DB_TYPE === 'mysql' ? ['better-sqlite3', 'mysql'] : ['better-sqlite3'];

describe.each(drivers)('insert-row on %s', (type) => {
  let dataSource: DataSource;
  // MySQL/MariaDB: a scratch database of this file's own, dropped at the end.
  const server = {
    host: process.env.DB_HOST ?? '127.0.0.1',
    port: Number(process.env.DB_PORT ?? 3306),
    user: process.env.DB_USER ?? 'root',
    password: process.env.DB_PASSWORD ?? '',
  };
  const scratch = `billing_spec_${randomBytes(5).toString('hex')}`;
  const admin = async (sql: string) => {
    const connection = await createConnection(server);
    await connection.query(sql).finally(() => connection.end());
  };

  beforeAll(async () => {
    if (type === 'mysql')
      await admin(`CREATE DATABASE \`${scratch}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    dataSource =
      type === 'mysql'
        ? new DataSource({
            type,
            host: server.host,
            port: server.port,
            username: server.user,
            password: server.password,
            database: scratch,
            timezone: 'Z',
            entities: [Probe],
            synchronize: true,
          })
        : bindNumbersOnSqlite(new DataSource({ type, database: ':memory:', entities: [Probe], synchronize: true }));
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    if (type === 'mysql') await admin(`DROP DATABASE IF EXISTS \`${scratch}\``);
  });

  /** The stored columns as the database holds them (not as TypeORM reads them), by id. */
  const raw = (ids: number[]) =>
    dataSource.query<Array<Record<string, unknown>>>(
      `SELECT label, at, amount, flag, count, data, code FROM insert_row_probe WHERE id IN (${ids.join(', ')}) ORDER BY id`,
    );

  it('stores exactly what TypeORM’s own insert stores, and returns the new ids in order', async () => {
    const reference = await dataSource.manager.insert(Probe, probes('typeorm'));
    const referenceIds = reference.identifiers.map((i) => Number(i.id));
    const ids = await insertRowsReturningIds(dataSource.manager, Probe, probes('positional'));
    const single = await insertRow(dataSource.manager, Probe, probes('single')[0]);

    const expected = (await raw(referenceIds)).map((row, i) => ({
      ...row,
      label: i === 1 ? null : `positional-${i + 1}`,
    }));
    expect(await raw(ids)).toEqual(expected);
    expect((await raw([single]))[0]).toEqual({ ...expected[0], label: 'single-1' });
    const found = await dataSource.manager.findBy(Probe, { label: 'positional-1' });
    const { amount, ...rest } = probes('positional')[0];
    expect(found).toEqual([{ id: ids[0], ...rest, amount: expect.anything() as unknown }]);
    // DECIMAL(18,6), rounded half up by the transformer.
    expect(amount.toFixed()).toBe('1234.5678905');
    expect(found[0].amount.toFixed()).toBe('1234.567891');
  });

  it('stores a row converted ahead (preparedRow, held to the commit) as it stores the row itself', async () => {
    const direct = await insertRowsReturningIds(dataSource.manager, Probe, probes('direct'));
    const source = probes('prepared');
    const prepared = source.map((row) => preparedRow(dataSource.manager, Probe, row));
    // The payload is its JSON text now: changing the object afterwards changes nothing stored.
    source[0].data!.b = 'changed';
    const ids = await insertRowsReturningIds(dataSource.manager, Probe, prepared);
    const labelled = (rows: Array<Record<string, unknown>>) => rows.map((row) => ({ ...row, label: null }));
    expect(labelled(await raw(ids))).toEqual(labelled(await raw(direct)));
    expect(typeof (prepared[0] as unknown as { data: { value: unknown } }).data.value).toBe('string');
  });

  it('leaves unset columns to their defaults and inlines a function as SQL', async () => {
    const id = await insertRow(dataSource.manager, Probe, {
      amount: new Decimal(1),
      at: () => 'CURRENT_TIMESTAMP',
    });
    const [row] = await dataSource.manager.findBy(Probe, { id });
    expect(row).toMatchObject({ label: null, flag: false, count: null, data: null, code: '' });
    expect(row.at).toBeInstanceOf(Date);
  });

  it('fails as a QueryFailedError that names a unique violation, and writes nothing', async () => {
    await insertRow(dataSource.manager, Probe, { label: 'taken', amount: new Decimal(1) });
    const before = await dataSource.manager.count(Probe);
    const error = await insertRowsReturningIds(dataSource.manager, Probe, [
      { label: 'free', amount: new Decimal(1) },
      { label: 'taken', amount: new Decimal(2) },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(isUniqueViolation(error)).toBe(true);
    expect(await dataSource.manager.count(Probe)).toBe(before);
  });

  it('returns each row its own id while other writers insert at the same time', async () => {
    // Eight writers at once (a pool of connections on MySQL/MariaDB), each one 60-row INSERT:
    // the ids a writer is given must be the rows it wrote, whatever the others got.
    const writers = Array.from({ length: 8 }, (_, w) =>
      Array.from({ length: 60 }, (__, r) => ({ label: `w${w}-r${r}`, amount: new Decimal(r) })),
    );
    const results = await Promise.all(writers.map((rows) => insertRowsReturningIds(dataSource.manager, Probe, rows)));
    const all = results.flat();
    expect(new Set(all).size).toBe(8 * 60);
    for (const [w, ids] of results.entries()) {
      expect((await raw(ids)).map((row) => row.label)).toEqual(writers[w].map((row) => row.label));
    }
  });

  if (type === 'mysql') {
    it('inserts row by row when the server does not step ids by one', async () => {
      // One connection, so the session setting is the one every statement sees.
      const single = new DataSource({ ...dataSource.options, extra: { connectionLimit: 1 } });
      await single.initialize();
      try {
        await single.query('SET SESSION auto_increment_increment = 3');
        const rows = ['step-1', 'step-2', 'step-3'].map((label) => ({ label, amount: new Decimal(1) }));
        const ids = await insertRowsReturningIds(single.manager, Probe, rows);
        expect(ids[1] - ids[0]).toBe(3);
        expect((await raw(ids)).map((row) => row.label)).toEqual(['step-1', 'step-2', 'step-3']);
      } finally {
        await single.destroy();
      }
    });
  }

  it('keeps the named form for callers that compose SQL with it', () => {
    const { sql, params } = insertRowsStatement(dataSource.manager, Probe, probes('named').slice(0, 2));
    expect(sql).toContain(':v13');
    expect(Object.keys(params)).toHaveLength(14);
  });
});

describe('sqliteParameter', () => {
  it('binds each value as the SQLite driver binds a named parameter', async () => {
    const dataSource = bindNumbersOnSqlite(new DataSource({ type: 'better-sqlite3', database: ':memory:' }));
    await dataSource.initialize();
    const values = [null, 'x', 3, -2.5, 2 ** 53, true, false, new Date('2026-11-25T19:30:15.250Z'), Buffer.from('b')];
    const params = Object.fromEntries(values.map((v, i) => [`p${i}`, v]));
    const [, bound] = dataSource.driver.escapeQueryWithParameters(values.map((_, i) => `:p${i}`).join(', '), params);
    expect(values.map(sqliteParameter)).toEqual(bound);
    await dataSource.destroy();
  });
});
