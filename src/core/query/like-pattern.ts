/**
 * The LIKE escape character. Not backslash: in MySQL string literals a backslash is itself
 * an escape, so `ESCAPE '\\'` means different things on MySQL and SQLite; `!` is plain on both.
 */
export const LIKE_ESCAPE = '!';

/** A LIKE pattern matching `value` anywhere, with the client's `%`, `_` and `!` taken literally. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[!%_]/g, (ch) => LIKE_ESCAPE + ch)}%`;
}
