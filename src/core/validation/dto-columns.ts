/**
 * The fields of a checked DTO that were sent and are plain columns of the entity: every
 * defined field but `notColumns` (fields the service handles itself, such as child rows).
 */
export function dtoColumns<T>(dto: object, notColumns: ReadonlySet<string>): Partial<T> {
  const columns: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(dto)) {
    if (value !== undefined && !notColumns.has(key)) columns[key] = value;
  }
  return columns as Partial<T>;
}
