import 'reflect-metadata';
import { DataSource, EntityManager } from 'typeorm';
import { amountSum } from './amount-sum';

describe('amountSum', () => {
  it('on MySQL and MariaDB is SUM of the DECIMAL, read from its exact string', () => {
    const sum = amountSum({ connection: { options: { type: 'mysql' } } } as unknown as EntityManager);
    expect(sum.sql('t.amount')).toBe('SUM(t.amount)');
    expect(sum.read('12345678901234.57').toFixed(2)).toBe('12345678901234.57');
    expect(sum.read(null).toString()).toBe('0');
  });

  describe('on SQLite', () => {
    let dataSource: DataSource;
    beforeAll(async () => {
      dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
      await dataSource.query('CREATE TABLE t (g INTEGER, a DECIMAL(18,2))');
      await dataSource.query(
        `INSERT INTO t VALUES (1, '0.10'), (1, '0.20'), (2, '-0.07'), (2, '-0.07'), (2, '0.01'), (3, NULL),
         (4, '12345678901.23'), (4, '98765432109.87'), (4, '0.01'), (5, '5.00')`,
      );
    });
    afterAll(() => dataSource.destroy());

    it('sums whole cents and reads them back as decimals, exactly', async () => {
      const sum = amountSum(dataSource.manager);
      const rows = await dataSource.query<Array<{ g: number; s: string | null }>>(
        `SELECT g, ${sum.sql('a')} AS s FROM t GROUP BY g ORDER BY g`,
      );
      expect(rows.map((row) => sum.read(row.s).toFixed(2))).toEqual([
        '0.30',
        '-0.13',
        '0.00',
        '111111111011.11',
        '5.00',
      ]);
      // As text: the integer never passes through a JS number.
      expect(rows[3].s).toBe('11111111101111');
    });
  });
});
