import { FieldMap } from './field-map';
import { lookupField } from './field-lookup';
import { OrderTerm, SortDirection } from './order-parser';

export interface SortKey {
  expr: string;
  dir: SortDirection;
}

/**
 * The ORDER BY keys for parsed terms, ending with the resource's default order as a
 * tiebreaker so pages are stable. Each expression appears once (the first wins): TypeORM
 * keys ORDER BY entries by expression, so a repeat would silently flip an earlier direction.
 */
export function compileOrder(fields: FieldMap, terms: OrderTerm[], defaultOrder: SortKey): SortKey[] {
  const requested = terms.map((term) => ({ expr: lookupField(fields, term.field, 'order').expr, dir: term.dir }));
  const keys: SortKey[] = [];
  for (const key of [...requested, defaultOrder]) {
    if (!keys.some((kept) => kept.expr === key.expr)) keys.push(key);
  }
  return keys;
}
