import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { fastPath } from './fast-paths';
import { insertColumnsKey, insertRow, insertRows, preparedRow } from './insert-row';

interface DeferredRow {
  entity: EntityTarget<ObjectLiteral>;
  values: ObjectLiteral;
}

/** Rows per INSERT statement when a transaction flushes many (a billing run's revisions). */
export const MAX_ROWS_PER_INSERT = 100;

/** The rows each open transaction (by its manager) will write before its COMMIT. */
const pending = new WeakMap<EntityManager, DeferredRow[]>();

/**
 * Write-only rows that nothing reads before the commit (revisions) wait for the end of
 * the transaction and go in one INSERT per table: a group commit of 16 creates writes
 * its 16 revisions in one statement, not 16 round trips. Only the group-commit writers
 * open a transaction for this (they flush before COMMIT); anywhere else, or with the
 * mechanism off (fast-paths.ts), the row is inserted at once.
 */
export function deferInsertsIn(manager: EntityManager): void {
  if (fastPath('deferred-inserts')) pending.set(manager, []);
}

/** Inserts the row before the transaction commits: at its end when the writer flushes, else now. */
export async function insertAtCommit<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): Promise<void> {
  const rows = pending.get(manager);
  // Converted now: what waits is the values as persisted (an event's JSON text), not their objects.
  if (rows) rows.push({ entity, values: preparedRow(manager, entity, values) });
  else await insertRow(manager, entity, values);
}

/** How many rows wait now: a unit that fails takes back what it added since (`dropDeferredSince`). */
export function deferredMark(manager: EntityManager): number {
  return pending.get(manager)?.length ?? 0;
}

export function dropDeferredSince(manager: EntityManager, mark: number): void {
  pending.get(manager)?.splice(mark);
}

/**
 * Writes the waiting rows, each table's in the order they came, in as few statements as the
 * tables and column sets allow, and closes the transaction for deferral (a failure here fails the
 * transaction as a COMMIT would).
 */
export async function flushDeferredInserts(manager: EntityManager): Promise<void> {
  const rows = pending.get(manager);
  pending.delete(manager);
  if (rows?.length) await insertDeferred(manager, rows);
}

async function insertDeferred(manager: EntityManager, rows: DeferredRow[]): Promise<void> {
  const batches = new Map<string, { entity: EntityTarget<ObjectLiteral>; rows: ObjectLiteral[] }>();
  for (const row of rows) {
    const table = manager.connection.getMetadata(row.entity).tableName;
    const key = `${table} ${insertColumnsKey(row.values)}`;
    const batch = batches.get(key);
    if (batch) batch.rows.push(row.values);
    else batches.set(key, { entity: row.entity, rows: [row.values] });
  }
  for (const { entity, rows: batch } of batches.values()) {
    for (let i = 0; i < batch.length; i += MAX_ROWS_PER_INSERT) {
      await insertRows(manager, entity, batch.slice(i, i + MAX_ROWS_PER_INSERT));
    }
  }
}

/** Forgets what a transaction that will not commit had waiting. */
export function dropDeferredInserts(manager: EntityManager): void {
  pending.delete(manager);
}
