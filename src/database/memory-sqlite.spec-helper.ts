import { DataSource, MixedList, EntitySchema } from 'typeorm';

/** A fresh in-memory SQLite database holding the tables of the given entities, for unit specs. */
export async function openMemorySqlite(
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity classes
  entities: MixedList<Function | string | EntitySchema>,
): Promise<DataSource> {
  const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities, synchronize: true });
  return dataSource.initialize();
}
