import { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { supportsInsertReturning } from './insert-returning';
import { insertStatement } from './insert-row';
import { insertReturningId, queryArrays } from './raw-query';

/** A second entity loaded by the same query and set on a property of the first (null when none matches). */
export interface JoinedEntity {
  property: string;
  entity: EntityTarget<ObjectLiteral>;
  alias: string;
  /** Trusted join condition, e.g. `su.user_id = c.superuser_id`; soft-deleted rows are left out as TypeORM does. */
  on: string;
  /**
   * The properties to load (the primary key always is); default every column, as an entity.
   * With some, a plain object of just those. Type the property to match.
   */
  columns?: readonly string[];
}

export interface EntityReaderSpec<T extends ObjectLiteral> {
  entity: EntityTarget<T>;
  alias: string;
  /**
   * The main entity's properties to load (the primary key always is); default every column,
   * as an entity. With some, a plain object of just those (T should then name only them).
   */
  columns?: readonly string[];
  joins?: JoinedEntity[];
}

/** Trusted SQL after the FROM clause; values only ever as named parameters. */
export interface ReadClause {
  /** Conditions joined with AND to the soft-delete filter, e.g. `c.customer_id = :id`. */
  where?: string;
  /** ORDER BY / LIMIT / OFFSET text. */
  tail?: string;
  params?: ObjectLiteral;
  /** Soft-deleted rows of the main entity too (TypeORM's `withDeleted`). */
  withDeleted?: boolean;
}

interface ColumnRead {
  /** Position of the value in the selected row. */
  index: number;
  property: string;
  column: ColumnMetadata;
}

interface EntityPart {
  metadata: EntityMetadata;
  /** Property of the main entity it is set on; undefined for the main entity. */
  property?: string;
  columns: ColumnRead[];
  /** Position of its primary key (null when the joined row is missing). */
  primaryIndex: number;
  /** Read with some of its columns only: hydrated as a plain object of those, not an entity. */
  partial: boolean;
}

interface Compiled {
  /** The entities' columns, for the SELECT list. */
  columns: string;
  /** How many values of a row they are. */
  width: number;
  /** FROM and the joins. */
  from: string;
  softDelete: string | null;
  parts: EntityPart[];
  /** The main entity's selected columns, in select order, unqualified (for RETURNING). */
  mainColumns: string;
  /** The main entity's selected columns of one row by primary key (`:id`), soft-deleted or not. */
  mainById: string;
}

/**
 * A read of whole entities whose SELECT is built once from TypeORM's metadata and whose
 * rows are hydrated through a precomputed column list, with the driver's own value
 * conversion and column transformers (so an entity reads exactly as through the query
 * builder). For hot paths: the query builder rebuilds and re-escapes every column of a
 * wide select and walks its metadata to hydrate on every call, which costs more than the
 * query itself.
 *
 * Entities with relations or embedded columns are out of scope (they are refused).
 */
export class EntityReader<T extends ObjectLiteral> {
  private compiled: Compiled | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly spec: EntityReaderSpec<T>,
  ) {}

  async many(manager: EntityManager, clause: ReadClause = {}): Promise<T[]> {
    const { parts } = this.compile();
    const rows = await queryArrays(manager, this.selectSql(clause, []), clause.params);
    return rows.map((row) => this.hydrate(row, parts));
  }

  /**
   * `many`, with the values of `extras` (trusted SQL expressions, e.g. scalar subqueries
   * on the main entity's columns) selected after the entities' columns, in their order.
   */
  async manyWithExtras(
    manager: EntityManager,
    clause: ReadClause,
    extras: readonly string[],
  ): Promise<Array<{ entity: T; extras: unknown[] }>> {
    const { parts, width } = this.compile();
    const rows = await queryArrays(manager, this.selectSql(clause, extras), clause.params);
    return rows.map((row) => ({ entity: this.hydrate(row, parts), extras: row.slice(width) }));
  }

  private selectSql(clause: ReadClause, extras: readonly string[]): string {
    const { columns, from, softDelete } = this.compile();
    const conditions = [clause.withDeleted ? null : softDelete, clause.where ? `(${clause.where})` : null].filter(
      (c) => c !== null,
    );
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
    const extraColumns = extras.map((extra) => `, ${extra}`).join('');
    return `SELECT ${columns}${extraColumns} ${from}${where}${clause.tail ? ` ${clause.tail}` : ''}`;
  }

  async one(manager: EntityManager, clause: ReadClause): Promise<T | null> {
    return (await this.many(manager, clause))[0] ?? null;
  }

  /**
   * Inserts one row of the main entity (see insertStatement) and returns it as stored,
   * generated id and column defaults included, hydrated as `many` hydrates it; joined
   * properties are left unset (what a new row joins is the caller's to know). One
   * statement where the database has INSERT ... RETURNING, else the insert and a read by id.
   */
  async insert(manager: EntityManager, values: QueryDeepPartialEntity<T>): Promise<T> {
    const { parts, mainColumns, mainById } = this.compile();
    const { sql, params } = insertStatement(manager, this.spec.entity, values);
    let rows: unknown[][];
    if (await supportsInsertReturning(manager)) {
      rows = await queryArrays(manager, `${sql} RETURNING ${mainColumns}`, params);
    } else {
      const id = await insertReturningId(manager, sql, params);
      rows = await queryArrays(manager, mainById, { id });
    }
    if (rows.length !== 1)
      throw new Error(`EntityReader.insert: the new ${parts[0].metadata.name} row was not read back`);
    return this.hydrate(rows[0], parts.slice(0, 1));
  }

  private hydrate(row: unknown[], parts: EntityPart[]): T {
    const driver = this.dataSource.driver;
    let main: ObjectLiteral | null = null;
    for (const part of parts) {
      let entity: ObjectLiteral | null = null;
      if (row[part.primaryIndex] !== null && row[part.primaryIndex] !== undefined) {
        // Some columns of a row are no entity to save, and constructing one defines every
        // property it declares: for a few columns read from many rows (a subscription's
        // whole invoice history), most of the hydration's time and garbage.
        entity = part.partial ? {} : (part.metadata.create(undefined, { fromDeserializer: true }) as ObjectLiteral);
        for (const read of part.columns) {
          const value = row[read.index];
          // Every driver hands back a null as it is unless a transformer reads it; most of
          // a wide row is null (custom fields, empty address lines), so skip the call.
          entity[read.property] =
            (value === null || value === undefined) && !read.column.transformer
              ? value
              : (driver.prepareHydratedValue(value, read.column) as unknown);
        }
      }
      if (main === null) main = entity;
      else if (part.property) (main as Record<string, unknown>)[part.property] = entity;
    }
    return main as T;
  }

  private compile(): Compiled {
    if (this.compiled) return this.compiled;
    const driver = this.dataSource.driver;
    const main = this.dataSource.getMetadata(this.spec.entity);
    const selects: string[] = [];
    const parts: EntityPart[] = [];
    const addPart = (metadata: EntityMetadata, alias: string, property?: string, only?: readonly string[]): void => {
      if (metadata.relations.length > 0 || metadata.embeddeds.length > 0) {
        throw new Error(`EntityReader: ${metadata.name} has relations or embedded columns`);
      }
      const primary = metadata.primaryColumns[0];
      const unknown = only?.filter((name) => !metadata.columns.some((c) => c.propertyName === name)) ?? [];
      if (unknown.length > 0) throw new Error(`EntityReader: ${metadata.name} has no column ${unknown.join(', ')}`);
      const columns: ColumnRead[] = [];
      for (const column of metadata.columns) {
        if (!column.isSelect || column.isVirtualProperty) continue;
        if (only && column !== primary && !only.includes(column.propertyName)) continue;
        const index = selects.length;
        // Aliased by position: unique, and short to send and to parse.
        selects.push(`${alias}.${driver.escape(column.databaseName)} AS ${driver.escape(`${alias}_${index}`)}`);
        columns.push({ index, property: column.propertyName, column });
      }
      const primaryIndex = columns.find((read) => read.column === primary)?.index ?? -1;
      parts.push({ metadata, property, columns, primaryIndex, partial: only !== undefined });
    };

    addPart(main, this.spec.alias, undefined, this.spec.columns);
    const joins: string[] = [];
    for (const join of this.spec.joins ?? []) {
      const metadata = this.dataSource.getMetadata(join.entity);
      addPart(metadata, join.alias, join.property, join.columns);
      const deleted = softDeleteCondition(metadata, join.alias, driver.escape.bind(driver));
      joins.push(
        `LEFT JOIN ${driver.escape(metadata.tableName)} ${join.alias} ON ${deleted ? `(${join.on}) AND ${deleted}` : join.on}`,
      );
    }
    const from = `FROM ${driver.escape(main.tableName)} ${this.spec.alias}`;
    // The main part's columns come first in the select, so a row of just them hydrates by the same positions.
    const mainColumns = parts[0].columns.map((read) => driver.escape(read.column.databaseName)).join(', ');
    const primary = driver.escape(main.primaryColumns[0].databaseName);
    this.compiled = {
      mainColumns,
      mainById: `SELECT ${mainColumns} FROM ${driver.escape(main.tableName)} WHERE ${primary} = :id`,
      columns: selects.join(', '),
      width: selects.length,
      from: [from, ...joins].join(' '),
      softDelete: softDeleteCondition(main, this.spec.alias, driver.escape.bind(driver)),
      parts,
    };
    return this.compiled;
  }
}

function softDeleteCondition(metadata: EntityMetadata, alias: string, escape: (name: string) => string): string | null {
  const column = metadata.deleteDateColumn;
  return column ? `${alias}.${escape(column.databaseName)} IS NULL` : null;
}

/** Plain readers (no joins, alias `e`) per data source and entity: compiled once, like the customer reader. */
const plainReaders = new WeakMap<DataSource, Map<EntityTarget<ObjectLiteral>, EntityReader<ObjectLiteral>>>();

/**
 * The plain EntityReader of `entity` (alias `e`), built once per data source: what a hot
 * batch path reads whole rows with instead of `find`, whose query builder and hydration
 * cost more CPU per row than the query (a billing run's reads of its own rows).
 */
export function plainReader<T extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<T>): EntityReader<T> {
  const dataSource = manager.connection;
  let readers = plainReaders.get(dataSource);
  if (!readers) {
    readers = new Map();
    plainReaders.set(dataSource, readers);
  }
  let reader = readers.get(entity);
  if (!reader) {
    reader = new EntityReader<ObjectLiteral>(dataSource, { entity, alias: 'e' });
    readers.set(entity, reader);
  }
  return reader as unknown as EntityReader<T>;
}
