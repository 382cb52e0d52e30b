import { EntityManager, ObjectLiteral } from 'typeorm';

/**
 * Runs trusted SQL with named parameters (`:name`, `:...list`) and returns the raw rows.
 * The names become the driver's placeholders exactly as in TypeORM's query builder (the
 * same escaping function, so dates, booleans and numbers bind the same way); values never
 * reach the SQL text.
 */
export async function queryRows<R extends ObjectLiteral>(
  manager: EntityManager,
  sql: string,
  params: ObjectLiteral = {},
): Promise<R[]> {
  const [text, values] = manager.connection.driver.escapeQueryWithParameters(sql, params);
  return manager.query<R[]>(text, values);
}
