import { readOptions } from './options';

describe('bench readOptions', () => {
  it('runs every scenario unless BENCH_SCENARIOS names some, in their usual order', () => {
    expect(readOptions({}).scenarios).toEqual(['read', 'list', 'create']);
    expect(readOptions({ BENCH_SCENARIOS: ' create , read' }).scenarios).toEqual(['read', 'create']);
  });

  it('refuses an unknown scenario by name', () => {
    expect(() => readOptions({ BENCH_SCENARIOS: 'list,delete' })).toThrow(
      'BENCH_SCENARIOS must list some of read, list, create (got "list,delete")',
    );
  });

  it('gives bulk requests their own connection count, 4 unless BENCH_BULK_CONNECTIONS says', () => {
    expect(readOptions({}).bulkConnections).toBe(4);
    expect(readOptions({ BENCH_BULK_CONNECTIONS: '8' }).bulkConnections).toBe(8);
    expect(() => readOptions({ BENCH_BULK_CONNECTIONS: '0' })).toThrow(
      'BENCH_BULK_CONNECTIONS must be an integer >= 1',
    );
  });

  it('names the scratch MySQL database billing_bench unless BENCH_MYSQL_DATABASE says, a plain identifier', () => {
    expect(readOptions({}).mysql.database).toBe('billing_bench');
    expect(readOptions({ BENCH_MYSQL_DATABASE: 'billing_bench_usage' }).mysql.database).toBe('billing_bench_usage');
    expect(() => readOptions({ BENCH_MYSQL_DATABASE: 'x`; DROP' })).toThrow('BENCH_MYSQL_DATABASE must be');
  });

  it('runs both usage scenarios unless BENCH_USAGE_SCENARIOS names one', () => {
    expect(readOptions({}).usageScenarios).toEqual(['bulk', 'single']);
    expect(readOptions({ BENCH_USAGE_SCENARIOS: 'single' }).usageScenarios).toEqual(['single']);
    expect(() => readOptions({ BENCH_USAGE_SCENARIOS: 'read' })).toThrow(
      'BENCH_USAGE_SCENARIOS must list some of bulk, single (got "read")',
    );
  });
});
