/**
 * A controller result that is not a plain 200: creates (201) and updates (202) carry
 * `{id}` and a `Location` header; payment results carry `details` beside the response.
 */
export class ApiResult {
  constructor(
    readonly code: number,
    readonly response: unknown,
    readonly headers: Record<string, string> = {},
    readonly details: Record<string, unknown> = {},
  ) {}
}

export type LocationBuilder = (resource: string, id: number) => string;

export function created(location: string, id: number): ApiResult {
  return new ApiResult(201, { id }, { Location: location });
}

export function updated(location: string, id: number): ApiResult {
  return new ApiResult(202, { id }, { Location: location });
}
