/**
 * Limits on the shape of any JSON body, checked once after parsing and before any code
 * walks it (a body nested 10,000 levels deep would overflow the stack of the first
 * recursive reader). Bodies are at most BODY_LIMIT bytes besides (configure-app.ts).
 */
export const BODY_SHAPE_LIMITS = {
  /** Objects and arrays inside one another. */
  depth: 32,
  /** Items in one array. */
  arrayLength: 1000,
  /** Fields in one object. */
  objectKeys: 1000,
  /** Characters in one string (a field's own limit may be lower). */
  stringLength: 65_535,
} as const;

/**
 * Returns what is wrong with the body's shape (naming where: `line_items[3].descrip`), or
 * null. Walks the value with its own stack, so no depth can overflow it.
 */
export function bodyShapeProblem(body: unknown): string | null {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    const where = path === '' ? 'the request body' : `"${path}"`;
    if (typeof value === 'string') {
      if (value.length > BODY_SHAPE_LIMITS.stringLength) {
        return `Invalid field ${where}: at most ${BODY_SHAPE_LIMITS.stringLength} characters.`;
      }
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= BODY_SHAPE_LIMITS.depth) {
      return `Invalid request: ${where} is nested deeper than ${BODY_SHAPE_LIMITS.depth} levels.`;
    }
    if (Array.isArray(value)) {
      if (value.length > BODY_SHAPE_LIMITS.arrayLength) {
        return `Invalid field ${where}: at most ${BODY_SHAPE_LIMITS.arrayLength} items.`;
      }
      value.forEach((item, i) => pending.push({ value: item, path: `${path}[${i}]`, depth: depth + 1 }));
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > BODY_SHAPE_LIMITS.objectKeys) {
      return `Invalid field ${where}: at most ${BODY_SHAPE_LIMITS.objectKeys} fields.`;
    }
    for (const key of keys) {
      if (key.length > 255) return `Invalid field ${where}: a field name is longer than 255 characters.`;
      const child = (value as Record<string, unknown>)[key];
      pending.push({ value: child, path: path === '' ? key : `${path}.${key}`, depth: depth + 1 });
    }
  }
  return null;
}
