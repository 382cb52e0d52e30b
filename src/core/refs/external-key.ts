import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { queryRows } from 'src/database/raw-query';
import { isUniqueViolation } from 'src/database/unique-violation';

/**
 * External keys are unique among every row ever created, deleted ones included
 * (DESIGN §4), so the check reads through soft deletion.
 */
export async function assertExternalKeyFree<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  idColumn: string,
  externalKey: string | null | undefined,
  resource: string,
  exceptId?: number,
): Promise<void> {
  if (externalKey === null || externalKey === undefined) return;
  const driver = manager.connection.driver;
  const table = driver.escape(manager.connection.getMetadata(entity).tableName);
  const [existing] = await queryRows<{ id: number }>(
    manager,
    `SELECT ${driver.escape(idColumn)} AS id FROM ${table} WHERE external_key = :externalKey LIMIT 1`,
    { externalKey },
  );
  if (existing && Number(existing.id) !== exceptId) {
    throw ApiError.badRequest(`Field "external_key": a ${resource} with external key "${externalKey}" already exists.`);
  }
}

/**
 * Runs the insert of a new row that carries `externalKey` and answers a taken key with
 * the same 400 as assertExternalKeyFree, without a lookup up front: the unique index
 * decides, and only an insert that fails pays for the query that names the problem.
 * For hot create paths; any other failure is passed on unchanged.
 */
export async function insertWithExternalKey<T extends ObjectLiteral, R>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  idColumn: string,
  externalKey: string | null | undefined,
  resource: string,
  insert: () => Promise<R>,
): Promise<R> {
  try {
    return await insert();
  } catch (error) {
    if (isUniqueViolation(error)) await assertExternalKeyFree(manager, entity, idColumn, externalKey, resource);
    throw error;
  }
}

/** What a deleted object's external key becomes (EXTERNAL_KEY_ON_DELETE). */
export function externalKeyAfterDelete(
  key: string | null,
  mode: 'keep' | 'clear' | 'mangle',
  suffix: string,
): string | null {
  if (key === null || mode === 'keep') return key;
  if (mode === 'clear') return null;
  return `${key.slice(0, 240)}-deleted-${suffix}`;
}
