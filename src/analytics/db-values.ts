/** A DATETIME as the driver returns it (SQLite: UTC text; mysql2: a Date at timezone 'Z'). */
export function asDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}
