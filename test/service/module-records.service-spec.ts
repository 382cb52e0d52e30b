import { findEntities, findMigrations } from 'src/database/discovery';
import { createServiceApp, ServiceApp } from '../support/service-app';

// Modules own their records: each registers its entities (TypeOrmModule.forFeature) and keeps
// its migrations in a `migrations` folder of its own; nothing in database/ lists them.
describe('records found where their modules keep them', () => {
  let t: ServiceApp;
  beforeAll(async () => {
    t = await createServiceApp();
  });
  afterAll(() => t.close());

  it('the app registers exactly the entities the tools find by file name', () => {
    const registered = t.dataSource.entityMetadatas.map((metadata) => metadata.target).sort(byName);
    const found = findEntities().sort(byName);
    expect(registered.map(nameOf)).toEqual(found.map(nameOf));
    expect(found.length).toBeGreaterThan(40);
  });

  it('every migration found has run, in the order of its timestamp', async () => {
    const found = findMigrations().map((migration) => migration.name);
    const ran = await t.dataSource.query<{ name: string }[]>('SELECT name FROM migrations ORDER BY timestamp, id');
    expect(ran.map((row) => row.name)).toEqual([...found].sort((a, b) => timestampOf(a) - timestampOf(b)));
    expect(found).toContain('InitialSchema1763800000000');
  });
});

const nameOf = (target: unknown): string => (target as { name: string }).name;
const byName = (a: unknown, b: unknown): number => nameOf(a).localeCompare(nameOf(b));
const timestampOf = (name: string): number => Number(/(\d{13})$/.exec(name)?.[1]);
