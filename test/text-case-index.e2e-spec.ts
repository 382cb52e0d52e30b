import { DataSource } from 'typeorm';
import { Contact } from 'src/customers/entities/contact.entity';
import { Customer } from 'src/customers/entities/customer.entity';
import { Item } from 'src/items/entities/item.entity';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Text ignores case on both databases without giving up the indexes of the hot reads
 * (DESIGN §4 Lists): the plan of a lookup by external key, username or an indexed
 * filter field still searches the column's index.
 */
describe('case-insensitive text keeps its indexes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    for (let i = 0; i < 50; i++) {
      const customer = await t.post('/api/v3/customer', {
        company: `Co ${i}`,
        external_key: `KEY-${i}`,
        bill_state: `S${i % 7}`,
        superuser_username: `User-${i}`,
      });
      expect(customer.status).toBe(201);
      expect((await t.post('/api/v3/item', { name: `Item ${i}`, external_key: `KEY-${i}` })).status).toBe(201);
    }
    // A hundred writes one after another: more than the default 30 s on a machine shared with other suites.
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  /** The index the database plans to use for `SELECT * FROM <table> WHERE <column> = ?` (a lower-case value). */
  async function indexUsed(
    dataSource: DataSource,
    entity: typeof Customer | typeof Contact | typeof Item,
    column: string,
  ) {
    const [sql, params] = dataSource
      .getRepository(entity)
      .createQueryBuilder('e')
      .where(`e.${column} = :value`, { value: column === 'username' ? 'user-7' : 'key-7' })
      .getQueryAndParameters();
    if (dataSource.options.type === 'better-sqlite3') {
      const plan = await dataSource.query<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`, params);
      return /USING (?:COVERING )?INDEX (\S+)/.exec(plan.map((row) => row.detail).join(' '))?.[1] ?? null;
    }
    const plan = await dataSource.query<{ key: string | null }[]>(`EXPLAIN ${sql}`, params);
    return plan[0].key;
  }

  const ENTITIES = { customer: Customer, user: Contact, item: Item };
  it.each([
    ['customer', 'external_key'],
    ['customer', 'bill_state'],
    ['user', 'username'],
    ['item', 'external_key'],
  ] as const)('%s.%s is looked up through its index', async (resource, column) => {
    const entity = ENTITIES[resource];
    const metadata = t.dataSource.getMetadata(entity);
    const index = metadata.indices.find((i) => i.columns.length === 1 && i.columns[0].databaseName === column);
    expect(index).toBeDefined();
    expect(await indexUsed(t.dataSource, entity, column)).toBe(index?.name);
  });

  it('finds the key in any case through that index', async () => {
    const res = await t.get('/api/v3/customer/external_key:key-7').expect(200);
    expect(res.body.response.external_key).toBe('KEY-7');
    expect((await t.get('/api/v3/customer/_count?where=bill_state:EQUALS:s3').expect(200)).body.response).toBe(7);
  });
});
