import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';

/** An action on one object: `POST /<resource>/<ref>?action=<name>` or `/_action/<name>`. */
export type ObjectAction = (ref: string, body: unknown, ctx: RequestContext) => Promise<unknown>;

/** An action on a collection: `POST /<resource>?action=<name>` or `/<resource>/_action/<name>`. */
export type CollectionAction = (body: unknown, ctx: RequestContext) => Promise<unknown>;

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
