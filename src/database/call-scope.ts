import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { EntityManager } from 'typeorm';
import type { OutsideUnit } from './outside-call-guard';

/**
 * One database transaction plus work to run only once it has committed (mail, job kicks),
 * which is handed the capability to call outside (outside-call-guard.ts) that the body
 * never holds.
 */
export interface Tx {
  readonly manager: EntityManager;
  afterCommit(fn: (outside: OutsideUnit) => void | Promise<void>): void;
}

/** Set while a unit of work's body runs; cleared when the body settles. */
export interface UnitMark {
  active: boolean;
  /** The unit's transaction: what a call made inside the body reads and writes through. */
  readonly tx?: Tx;
}

/** What a call carries down through everything it awaits. */
export interface CallScope {
  /** What started the call (the HTTP request, set by the request logger); database/ never reads it. */
  readonly origin?: object;
  /** Set while a unit of work's body runs (the outside-call guard). */
  readonly unit?: UnitMark;
  /**
   * Run at the end of each unit of work the call starts, in the unit's transaction, so what
   * it writes commits with the unit or not at all (set by whoever handles the call: the
   * Idempotency-Key of a request marks its key as written).
   */
  unitEnd?: (manager: EntityManager) => Promise<void>;
  /**
   * When the call must have ended (`performance.now()` ms; REQUEST_TIMEOUT_MS after a request
   * arrived): a unit of work not started by then never starts, and a statement is bounded by
   * what is left of it (mysql-timed-out-connections.ts).
   */
  readonly deadline?: number;
}

/** The error of a unit or statement that would run past its call's deadline (a 503: nothing of it stays). */
export class DeadlinePassed extends Error {
  readonly code = 'REQUEST_DEADLINE';
  constructor(what: string) {
    super(`The request's deadline passed ${what}.`);
    this.name = 'DeadlinePassed';
  }
}

/** Milliseconds left before the current call's deadline; Infinity without one. */
export function msToDeadline(): number {
  const deadline = currentScope()?.deadline;
  return deadline === undefined ? Infinity : deadline - performance.now();
}

/** What `beforeDeadline` gives when the call's deadline came first. */
export const DEADLINE_CAME = Symbol('deadline came');

/**
 * `call`'s value, or DEADLINE_CAME once the current call's deadline passes first (`call`
 * goes on; its caller decides what becomes of its late answer). Without a deadline, `call`.
 */
export function beforeDeadline<T>(call: Promise<T>): Promise<T | typeof DEADLINE_CAME> {
  const left = msToDeadline();
  if (left === Infinity) return call;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof DEADLINE_CAME>((resolve) => {
    timer = setTimeout(() => resolve(DEADLINE_CAME), Math.max(0, left));
  });
  return Promise.race([call, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The process' one AsyncLocalStorage, switched on only while a scope is open. While it is
 * on, Node 20 runs a promise hook for every promise the process creates (a read by id made
 * about 80 and paid about 70 µs of CPU for them, 12 %; bench/RESULTS.md), so it is switched
 * off again whenever the last open scope closes: a process serving only reads never pays.
 */
const storage = new AsyncLocalStorage<CallScope>();
/** Scopes opened and not yet closed. */
let openScopes = 0;

/** The scope the caller runs in; undefined outside any (or once every scope has closed). */
export function currentScope(): CallScope | undefined {
  return storage.getStore();
}

/**
 * Runs `enter` in `scope` and returns the function that closes it, to be called once
 * everything the scope covers has ended (more than once is harmless). Whatever `enter`
 * starts, and everything that awaits it, sees the scope until then.
 */
export function openScope(scope: CallScope, enter: () => void): () => void {
  openScopes++;
  let closed = false;
  try {
    storage.run(scope, enter);
  } catch (error) {
    closeScope();
    throw error;
  }
  return () => {
    if (closed) return;
    closed = true;
    closeScope();
  };

  function closeScope(): void {
    closed = true;
    // The last one out switches the promise hook off; the next `run` switches it on again.
    if (--openScopes === 0) storage.disable();
  }
}

/** `body` in `scope`, the scope closed once the body has settled. */
export async function runInScope<T>(scope: CallScope, body: () => Promise<T>): Promise<T> {
  let settled!: Promise<T>;
  const close = openScope(scope, () => {
    settled = body();
  });
  try {
    return await settled;
  } finally {
    close();
  }
}

/** `fn` (synchronous) in `scope`, the scope closed when it returns. */
export function runSyncInScope<T>(scope: CallScope, fn: () => T): T {
  let result!: T;
  openScope(scope, () => {
    result = fn();
  })();
  return result;
}

/**
 * `fn` outside every scope, with everything it starts: for work done for several callers at
 * once (core/batching), which belongs to none of them, so that a line it logs names no
 * request rather than the wrong one, and no caller's unit-of-work mark reaches it.
 */
export function runOutsideScopes(fn: () => void): void {
  storage.exit(fn);
}

/** Whether the storage is on (some scope is open): for tests of the switch. */
export function scopeTrackingOn(): boolean {
  return openScopes > 0;
}
