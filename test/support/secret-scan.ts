import { DataSource } from 'typeorm';

/** Every row of every table, as JSON text per table (for scans that nothing secret was stored). */
export async function dumpAllTables(dataSource: DataSource): Promise<Record<string, string>> {
  const mysql = dataSource.options.type === 'mysql';
  const tables = mysql
    ? ((await dataSource.query('SHOW TABLES')) as Array<Record<string, string>>).map((r) => Object.values(r)[0])
    : ((await dataSource.query("SELECT name FROM sqlite_master WHERE type = 'table'")) as Array<{ name: string }>).map(
        (r) => r.name,
      );
  const dump: Record<string, string> = {};
  for (const table of tables) {
    const quoted = mysql ? `\`${table}\`` : `"${table}"`;
    dump[table] = JSON.stringify(await dataSource.query(`SELECT * FROM ${quoted}`));
  }
  return dump;
}

/** Collects everything written to stdout/stderr while `start()`..`stop()` (the app's logs). */
export function captureOutput(): { stop: () => string } {
  const chunks: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const tap =
    (write: typeof process.stdout.write) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    };
  process.stdout.write = tap(out) as typeof process.stdout.write;
  process.stderr.write = tap(err) as typeof process.stderr.write;
  return {
    stop: () => {
      process.stdout.write = out;
      process.stderr.write = err;
      return chunks.join('');
    },
  };
}
