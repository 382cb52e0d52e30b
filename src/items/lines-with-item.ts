import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { EntityReader } from 'src/database/entity-reader';
import { Item } from './entities/item.entity';

/**
 * A reader of lines (alias `l`, with an `item_id`) each with the columns `columns` of its
 * item on `item` (alias `it`; null when the item is soft-deleted): how invoice and
 * subscription lines are read for the wire, built once per reader.
 */
export function linesWithItemReader<L extends ObjectLiteral>(
  dataSource: DataSource,
  entity: EntityTarget<L>,
  columns: readonly string[],
): EntityReader<L> {
  return new EntityReader<L>(dataSource, {
    entity,
    alias: 'l',
    joins: [{ property: 'item', entity: Item, alias: 'it', on: 'it.item_id = l.item_id', columns }],
  });
}
