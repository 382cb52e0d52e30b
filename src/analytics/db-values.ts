/** A DATETIME as the driver returns it (SQLite: UTC text; mysql2: a Date at timezone 'Z'). */
export function asDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}

/** A DATE column as `YYYY-MM-DD`: text on SQLite, a Date at UTC midnight from mysql2. */
export function dateText(value: Date | string): string {
  return value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10);
}
