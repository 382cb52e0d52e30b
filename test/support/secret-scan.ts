import { DataSource } from 'typeorm';

/** Every row of every table, as JSON text per table (for scans that nothing secret was stored). */
export async function dumpAllTables(dataSource: DataSource): Promise<Record<string, string>> {
  const mysql = dataSource.options.type === 'mysql';
  const tables = mysql
    ? (await dataSource.query<Array<Record<string, string>>>('SHOW TABLES')).map((r) => Object.values(r)[0])
    : (await dataSource.query<Array<{ name: string }>>("SELECT name FROM sqlite_master WHERE type = 'table'")).map(
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
  process.stdout.write = tap(out);
  process.stderr.write = tap(err);
  return {
    stop: () => {
      process.stdout.write = out;
      process.stderr.write = err;
      return chunks.join('');
    },
  };
}
