import Database from 'better-sqlite3';
import { Connection, createConnection, RowDataPacket } from 'mysql2/promise';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { BenchOptions, MysqlAccess } from './options';
import { BulkTable } from './growth-rows';
import { batches, SEED_COLUMNS, seedRow, SeedValue, sqlUtc } from './seed-rows';

/** The database both servers use during a run: created empty, seeded after the server's migrations, disposed. */
export interface BenchDatabase {
  /** `DB_*` variables understood by the server (and by the baseline). */
  readonly env: Record<string, string>;
  /** Makes an empty database for the server's first start (its migrations create the schema). */
  create(): Promise<void>;
  /** Inserts customers 1..count into the migrated schema. */
  seed(count: number): Promise<void>;
  /**
   * Inserts the rows of customers from..to into each table (SQLite: multi-row INSERTs;
   * MariaDB: LOAD DATA), `BULK_COMMIT_EVERY` customers at a time; `progress` hears the last customer in.
   */
  bulkLoad(tables: readonly BulkTable[], from: number, to: number, progress?: (done: number) => void): Promise<void>;
  /** Runs one statement on a connection of its own (e.g. EXPLAIN, ANALYZE) and returns its rows. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** Engine and version, for the report. */
  describe(): Promise<string>;
  /** Drops the scratch database (a SQLite file goes with its temporary folder). */
  dispose(): Promise<void>;
}

export function benchDatabase(options: BenchOptions, workDir: string): BenchDatabase {
  return options.db === 'mysql' ? new MysqlBenchDatabase(options.mysql) : new SqliteBenchDatabase(workDir);
}

const SQLITE_BATCH = 500;
const MYSQL_BATCH = 1000;
/** Customers per bulk INSERT (their rows in each table), and per commit. */
const BULK_BATCH = 200;
const BULK_COMMIT_EVERY = 50_000;

/** The rows of customers from..to in one table, flattened. */
function bulkRows(table: BulkTable, from: number, to: number): SeedValue[][] {
  const rows: SeedValue[][] = [];
  for (let n = from; n <= to; n++) rows.push(...table.rowsOf(n));
  return rows;
}

class SqliteBenchDatabase implements BenchDatabase {
  private readonly path: string;

  constructor(workDir: string) {
    this.path = join(workDir, 'bench.sqlite');
  }

  get env(): Record<string, string> {
    return { DB_TYPE: 'sqlite', DB_PATH: this.path };
  }

  create(): Promise<void> {
    return Promise.resolve(); // the server creates the file
  }

  /** One transaction of prepared multi-row INSERTs (the server is stopped meanwhile). */
  seed(count: number): Promise<void> {
    const db = new Database(this.path);
    try {
      db.pragma('busy_timeout = 5000');
      const statements = new Map<number, Database.Statement>();
      const statementFor = (rows: number): Database.Statement => {
        let statement = statements.get(rows);
        if (!statement) {
          statement = db.prepare(multiRowInsert(rows));
          statements.set(rows, statement);
        }
        return statement;
      };
      const writtenAt = sqlUtc(new Date());
      db.transaction(() => {
        for (const { from, to } of batches(count, SQLITE_BATCH)) {
          statementFor(to - from + 1).run(flatRows(from, to, writtenAt));
        }
      })();
    } finally {
      db.close();
    }
    return Promise.resolve();
  }

  /** Prepared multi-row INSERTs per table and row count, one transaction per BULK_COMMIT_EVERY customers. */
  bulkLoad(tables: readonly BulkTable[], from: number, to: number, progress?: (done: number) => void): Promise<void> {
    const db = new Database(this.path);
    try {
      db.pragma('busy_timeout = 5000');
      const statements = new Map<string, Database.Statement>();
      const insert = (table: BulkTable, rows: SeedValue[][]): void => {
        const key = `${table.table}/${rows.length}`;
        let statement = statements.get(key);
        if (!statement) {
          const tuple = `(${table.columns.map(() => '?').join(', ')})`;
          statement = db.prepare(
            `INSERT INTO ${table.table} (${table.columns.join(', ')}) VALUES ${Array<string>(rows.length).fill(tuple).join(', ')}`,
          );
          statements.set(key, statement);
        }
        statement.run(rows.flat());
      };
      for (const chunk of batches(to, BULK_COMMIT_EVERY, from)) {
        db.transaction(() => {
          for (let from = chunk.from; from <= chunk.to; from += BULK_BATCH) {
            const to = Math.min(chunk.to, from + BULK_BATCH - 1);
            for (const table of tables) insert(table, bulkRows(table, from, to));
          }
        })();
        progress?.(chunk.to);
      }
      db.pragma('optimize');
    } finally {
      db.close();
    }
    return Promise.resolve();
  }

  query(sql: string): Promise<Record<string, unknown>[]> {
    const db = new Database(this.path);
    try {
      return Promise.resolve(db.prepare(sql).all() as Record<string, unknown>[]);
    } finally {
      db.close();
    }
  }

  describe(): Promise<string> {
    const db = new Database(this.path, { readonly: true });
    try {
      const version = db.prepare('SELECT sqlite_version() AS v').pluck().get() as string;
      return Promise.resolve(`SQLite ${version} (better-sqlite3, WAL), file in a temporary folder`);
    } finally {
      db.close();
    }
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }
}

class MysqlBenchDatabase implements BenchDatabase {
  constructor(private readonly access: MysqlAccess) {}

  get env(): Record<string, string> {
    const a = this.access;
    return {
      DB_TYPE: 'mysql',
      DB_HOST: a.host,
      DB_PORT: String(a.port),
      DB_USER: a.user,
      DB_PASSWORD: a.password,
      DB_NAME: a.database,
    };
  }

  async create(): Promise<void> {
    await this.withConnection(false, async (conn) => {
      await conn.query(`DROP DATABASE IF EXISTS \`${this.access.database}\``);
      await conn.query(`CREATE DATABASE \`${this.access.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    });
  }

  /** Multi-row INSERTs of 1000 rows in one transaction. */
  async seed(count: number): Promise<void> {
    const writtenAt = sqlUtc(new Date());
    await this.withConnection(true, async (conn) => {
      await conn.beginTransaction();
      for (const { from, to } of batches(count, MYSQL_BATCH)) {
        const rows: SeedValue[][] = [];
        for (let n = from; n <= to; n++) rows.push(seedRow(n, writtenAt));
        await conn.query(`INSERT INTO customer (${SEED_COLUMNS.join(', ')}) VALUES ?`, [rows]);
      }
      await conn.commit();
    });
  }

  /**
   * One `LOAD DATA LOCAL INFILE` per table and BULK_COMMIT_EVERY customers, its rows streamed
   * as tab-separated text: the server parses them in bulk, about 20 times the rate of
   * multi-row INSERTs through the driver (46 min for 1,000,000 customers with INSERTs). Each
   * table's secondary indexes are dropped for its load and built again after it, by one sort
   * each: kept up row by row they are random writes (invoice has 22) far beyond a small
   * buffer pool.
   */
  async bulkLoad(
    tables: readonly BulkTable[],
    from: number,
    to: number,
    progress?: (done: number) => void,
  ): Promise<void> {
    await this.withConnection(true, async (conn) => {
      // The rows are new and consistent by construction: no per-row unique check on load.
      await conn.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
      for (const table of tables) {
        const indexes = await secondaryIndexes(conn, table.table);
        if (indexes.length) await conn.query(`ALTER TABLE ${table.table} ${indexes.map((i) => `DROP INDEX \`${i.name}\``).join(', ')}`);
        try {
          for (const chunk of batches(to, BULK_COMMIT_EVERY, from)) {
            await conn.query({
              sql: `LOAD DATA LOCAL INFILE 'rows.tsv' INTO TABLE ${table.table} CHARACTER SET utf8mb4 (${table.columns.join(', ')})`,
              infileStreamFactory: () => Readable.from(tsvLines(table, chunk.from, chunk.to)),
            });
            if (table === tables[tables.length - 1]) progress?.(chunk.to);
          }
        } finally {
          if (indexes.length) await conn.query(`ALTER TABLE ${table.table} ${indexes.map((i) => `ADD ${i.definition}`).join(', ')}`);
        }
        await conn.query(`ANALYZE TABLE ${table.table}`);
      }
    });
  } // prettier-ignore

  async query(sql: string): Promise<Record<string, unknown>[]> {
    return this.withConnection(true, async (conn) => (await conn.query<RowDataPacket[]>(sql))[0]);
  }

  async describe(): Promise<string> {
    return this.withConnection(false, async (conn) => {
      const [rows] = await conn.query<RowDataPacket[]>('SELECT VERSION() AS v');
      return `MySQL/MariaDB ${String(rows[0].v)} (mysql2) at ${this.access.host}:${this.access.port}, database ${this.access.database}`;
    });
  }

  async dispose(): Promise<void> {
    await this.withConnection(false, async (conn) => {
      await conn.query(`DROP DATABASE IF EXISTS \`${this.access.database}\``);
    });
  }

  private async withConnection<T>(useDatabase: boolean, work: (conn: Connection) => Promise<T>): Promise<T> {
    const a = this.access;
    const conn = await createConnection({
      host: a.host,
      port: a.port,
      user: a.user,
      password: a.password,
      database: useDatabase ? a.database : undefined,
    });
    try {
      return await work(conn);
    } finally {
      await conn.end();
    }
  }
}

/** A table's indexes but its primary key, each with its `ADD` clause (names, columns and prefixes kept). */
async function secondaryIndexes(conn: Connection, table: string): Promise<Array<{ name: string; definition: string }>> {
  const [rows] = await conn.query<RowDataPacket[]>(
    `SELECT INDEX_NAME AS name, NON_UNIQUE AS nonUnique, COLUMN_NAME AS col, SUB_PART AS part
       FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY'
      ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
    [table],
  );
  const byName = new Map<string, { unique: boolean; columns: string[] }>();
  for (const row of rows) {
    const index = byName.get(row.name as string) ?? { unique: Number(row.nonUnique) === 0, columns: [] };
    index.columns.push(`\`${row.col as string}\`${row.part === null ? '' : `(${Number(row.part)})`}`);
    byName.set(row.name as string, index);
  }
  return [...byName].map(([name, i]) => ({
    name,
    definition: `${i.unique ? 'UNIQUE ' : ''}INDEX \`${name}\` (${i.columns.join(', ')})`,
  }));
}

/** The rows of customers from..to in LOAD DATA's default text form, BULK_BATCH customers a piece. */
function* tsvLines(table: BulkTable, from: number, to: number): Generator<Buffer> {
  for (let start = from; start <= to; start += BULK_BATCH) {
    const rows = bulkRows(table, start, Math.min(to, start + BULK_BATCH - 1));
    yield Buffer.from(rows.map((row) => row.map(tsvField).join('\t')).join('\n') + '\n', 'utf8');
  }
}

/** LOAD DATA's escapes: a backslash before a tab, a newline or a backslash. */
function tsvField(value: SeedValue): string {
  return String(value).replace(/[\\\t\n]/g, (c) => `\\${c === '\t' ? 't' : c === '\n' ? 'n' : c}`);
}

function multiRowInsert(rows: number): string {
  const tuple = `(${SEED_COLUMNS.map(() => '?').join(', ')})`;
  return `INSERT INTO customer (${SEED_COLUMNS.join(', ')}) VALUES ${Array<string>(rows).fill(tuple).join(', ')}`;
}

function flatRows(from: number, to: number, writtenAt: string): SeedValue[] {
  const values: SeedValue[] = [];
  for (let n = from; n <= to; n++) values.push(...seedRow(n, writtenAt));
  return values;
}
