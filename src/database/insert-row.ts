import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { insertReturningId } from './raw-query';

/** The columns an INSERT may set, by property name, per entity (from TypeORM's metadata, read once). */
const insertableColumns = new WeakMap<EntityMetadata, Map<string, ColumnMetadata>>();

function columnsOf(metadata: EntityMetadata): Map<string, ColumnMetadata> {
  let columns = insertableColumns.get(metadata);
  if (!columns) {
    if (metadata.relations.length > 0 || metadata.embeddeds.length > 0) {
      throw new Error(`insertRow: ${metadata.name} has relations or embedded columns`);
    }
    columns = new Map(
      metadata.columns.filter((c) => c.isInsert && !c.isVirtualProperty).map((c) => [c.propertyName, c]),
    );
    insertableColumns.set(metadata, columns);
  }
  return columns;
}

/** An INSERT of one row: trusted SQL text and its named parameters. */
export interface InsertStatement {
  sql: string;
  params: Record<string, unknown>;
}

/**
 * The INSERT of one row with only the given column values (the database's column
 * defaults, which the migrations keep equal to the entities', fill the rest); each value
 * goes through the driver's own conversion and the column's transformer and is bound,
 * exactly as TypeORM's insert does.
 */
export function insertStatement<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): InsertStatement {
  const driver = manager.connection.driver;
  const metadata = manager.connection.getMetadata(entity);
  const columns = columnsOf(metadata);
  const names: string[] = [];
  const params: Record<string, unknown> = {};
  for (const [property, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const column = columns.get(property);
    // As TypeORM's insert: properties that are not columns (request-only fields) are ignored.
    if (!column) continue;
    params[`v${names.length}`] = driver.preparePersistentValue(value, column);
    names.push(driver.escape(column.databaseName));
  }
  if (names.length === 0) throw new Error(`insertRow: no values for ${metadata.name}`);
  const placeholders = names.map((_, i) => `:v${i}`).join(', ');
  return {
    sql: `INSERT INTO ${driver.escape(metadata.tableName)} (${names.join(', ')}) VALUES (${placeholders})`,
    params,
  };
}

/**
 * Inserts one row (see insertStatement) and returns its generated id. Unlike
 * `manager.insert`, nothing is re-selected afterwards and no query builder is built: a
 * write here is one statement.
 */
export async function insertRow<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): Promise<number> {
  const { sql, params } = insertStatement(manager, entity, values);
  return insertReturningId(manager, sql, params);
}
