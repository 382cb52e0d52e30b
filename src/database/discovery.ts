import { readdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { getMetadataArgsStorage, MigrationInterface } from 'typeorm';

/**
 * Records found by where they live, so a module adds its own and edits no central list:
 * - a migration is a file `<timestamp>-<name>` in any folder named `migrations` (this folder
 *   holds the first ones; a module keeps its own in `<module>/migrations/`);
 * - an entity is a class in a file named `*.entity` or `*.entities`.
 * The tree searched is the one this file was loaded from: `src/` under ts-node and Jest,
 * `dist/` when built, so the same code works from both.
 */
const TREE = join(__dirname, '..');
const SOURCE = extname(__filename);

type MigrationClass = new () => MigrationInterface;
type AnyClass = new (...args: never[]) => object;

/** Every migration class of the tree (TypeORM orders them by the timestamp in their name). */
export function findMigrations(tree = TREE): MigrationClass[] {
  const files = sourceFiles(tree).filter(
    (file) => basename(join(file, '..')) === 'migrations' && /^\d+-/.test(basename(file)),
  );
  return classesOf(files).filter(
    (cls): cls is MigrationClass =>
      typeof (cls.prototype as Partial<MigrationInterface> | undefined)?.up === 'function',
  );
}

/**
 * Every entity class of the tree, for the tools that start TypeORM without the application
 * (the CLI, the migration check). The application registers the same classes module by module
 * (`TypeOrmModule.forFeature`), and a test proves the two sets equal.
 */
export function findEntities(tree = TREE): AnyClass[] {
  const files = sourceFiles(tree).filter((file) => /\.entit(y|ies)$/.test(basename(file, SOURCE)));
  const classes = classesOf(files);
  // Read after loading the files: their decorators are what fills TypeORM's storage.
  const tables = new Set(getMetadataArgsStorage().tables.map((table) => table.target));
  return classes.filter((cls) => tables.has(cls));
}

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (entry.name.endsWith(SOURCE) && !/\.(d|spec|spec-helper)\.[tj]s$/.test(entry.name)) found.push(path);
  }
  return found.sort();
}

function classesOf(files: string[]): AnyClass[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading by path is the point
  const modules = files.map((file) => require(file) as Record<string, unknown>);
  return modules.flatMap((exports) =>
    Object.values(exports).filter((value): value is AnyClass => typeof value === 'function'),
  );
}
