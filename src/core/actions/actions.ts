import { ApiError } from 'src/core/envelope/api-error';

/** Finds the named action or answers the 400 that lists the ones there are. */
export function pickAction<T>(actions: Readonly<Record<string, T>>, resource: string, name: unknown): T {
  if (typeof name !== 'string' || name === '') {
    throw ApiError.badRequest(`Missing "action" for ${resource}.`);
  }
  const action = Object.prototype.hasOwnProperty.call(actions, name) ? actions[name] : undefined;
  if (!action) {
    const known = Object.keys(actions);
    throw ApiError.badRequest(
      `Unknown action "${name}" for ${resource}.${known.length ? ` Available actions: ${known.join(', ')}.` : ''}`,
    );
  }
  return action;
}
