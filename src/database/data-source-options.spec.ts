import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { FAST_PATHS } from 'src/config/app-config';
import { buildDataSourceOptions } from './data-source-options';

describe('buildDataSourceOptions (SQLite)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'billing-options-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens the file in WAL mode with every commit synced to disk (synchronous FULL), on a restart too', async () => {
    const options = buildDataSourceOptions(
      {
        type: 'sqlite',
        path: join(dir, 'nested', 'billing.sqlite'),
        host: '',
        port: 0,
        user: '',
        password: '',
        name: '',
        migrationsRun: false,
        fastPaths: new Set(FAST_PATHS),
      },
      [],
    );
    // The first start creates the file; SQLite applies its WAL default (NORMAL in
    // better-sqlite3's build) only when it opens a file that is already in WAL mode.
    await new DataSource(options).initialize().then((first) => first.destroy());
    const dataSource = await new DataSource(options).initialize();
    try {
      const [{ journal_mode }] = await dataSource.query<Array<{ journal_mode: string }>>('PRAGMA journal_mode');
      const [{ synchronous }] = await dataSource.query<Array<{ synchronous: number }>>('PRAGMA synchronous');
      expect(journal_mode).toBe('wal');
      // 2 is FULL, 1 NORMAL.
      expect(synchronous).toBe(2);
    } finally {
      await dataSource.destroy();
    }
  });
});
