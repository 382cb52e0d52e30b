/** How a resource exposes its columns to `where` and `order`. */
export type FieldType = 'int' | 'number' | 'string' | 'bool' | 'date' | 'datetime';

export interface QueryField {
  /** Trusted SQL expression (ours, never client text), e.g. `c.company`. */
  expr: string;
  type: FieldType;
  /**
   * For nested fields (`line_items.item_id`, `customers.customer_id`): a trusted
   * subquery with a `{cond}` placeholder, e.g.
   * `SELECT 1 FROM customer_user cu WHERE cu.user_id = u.user_id AND {cond}`.
   * The condition becomes `EXISTS (...)`; nested fields cannot be ordered by.
   */
  exists?: string;
  /**
   * For a derived field: `expr = value` as a condition the database can answer from an
   * index (trusted SQL, built only for values the field knows), or null to compare `expr`.
   */
  equals?: (value: string) => string | null;
}

/** Wire field name -> how to query it. Only these names are accepted. */
export type FieldMap = Readonly<Record<string, QueryField>>;
