import { AsyncLocalStorage } from 'node:async_hooks';

/** Set while a unit of work's body runs; cleared when the body settles. */
export interface UnitMark {
  active: boolean;
}

/** What a call carries down through everything it awaits. */
export interface CallScope {
  /** What started the call (the HTTP request, set by the request logger); database/ never reads it. */
  readonly origin?: object;
  /** Set while a unit of work's body runs (the outside-call guard). */
  readonly unit?: UnitMark;
}

/**
 * The process' one AsyncLocalStorage. Each enabled one adds work to every promise the
 * process creates (Node 20 propagates each store by a promise hook), so the request's
 * origin and the unit of work's mark share this one rather than each keeping its own.
 */
export const callScope = new AsyncLocalStorage<CallScope>();
