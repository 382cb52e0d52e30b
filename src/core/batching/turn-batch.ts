import DataLoader from 'dataloader';
import { ApiError } from 'src/core/envelope/api-error';
import { currentScope, runInScope, runOutsideScopes } from 'src/database/call-scope';
import { fastPath } from 'src/database/fast-paths';
import { insideUnitOfWork } from 'src/database/outside-call-guard';

/** At most this many calls share one batch; more in one turn make several. A power of two (see readsById). */
const MAX_BATCH = 128;

/** One call's share of a batch: `load` answers with what the batch gave its key. */
export interface TurnBatch<K, V> {
  load(key: K): Promise<V>;
}

/**
 * Calls made in one turn of the event loop, handed to `run` together once the turn's I/O
 * callbacks are done (requests whose bytes came in together, say): under load, one query
 * for many requests instead of one each, which on MariaDB is the round trip and the
 * database's wake-up per statement. `run` answers each key in order, with its value or the
 * Error that key's call rejects with; if `run` itself fails, every call of the batch does.
 * Nothing is cached: each call sees the database as of its own batch.
 *
 * DataLoader does the collecting; its default schedule (the next microtask) would batch
 * only the calls of one request, so the batch waits for `setImmediate` instead. The batch
 * runs outside its first caller's scope (database/call-scope.ts), which `setImmediate`
 * would otherwise carry into it: it works for every call, so a line it logs names no single
 * request; each caller is back in its own scope once its `load` settles.
 *
 * A call inside a unit of work's body is not batched: `run` is handed that key alone, at
 * once, in the caller's scope, so its reads go through the unit's transaction (`readManager`,
 * database/unit-of-work.ts) and its units join the caller's (UnitOfWork.run): it sees what
 * the unit wrote, and what it writes commits or is undone with the unit. A batch would run
 * on connections and in units of its own, which the caller's transaction would neither see
 * nor undo, and would hold the caller's locks while it waits for the rest of the turn.
 */
export function turnBatch<K, V>(run: (keys: readonly K[]) => Promise<ArrayLike<V | Error>>): TurnBatch<K, V> {
  // The calls' deadlines (call-scope.ts): a batch runs by the earliest of its calls'.
  const deadlines = new Map<K, number>();
  const runByDeadline = (keys: readonly K[]): Promise<ArrayLike<V | Error>> => {
    let deadline = Infinity;
    for (const key of keys) {
      deadline = Math.min(deadline, deadlines.get(key) ?? Infinity);
      deadlines.delete(key);
    }
    return deadline === Infinity ? run(keys) : runInScope({ deadline }, () => run(keys));
  };
  const loader = new DataLoader<K, V>(runByDeadline, {
    cache: false,
    batchScheduleFn: (dispatch) => setImmediate(() => runOutsideScopes(dispatch)),
    maxBatchSize: MAX_BATCH,
  });
  return {
    load: (key) => {
      // Inside a unit of work a call is not batched: it runs alone, at once, in the caller's
      // transaction. So does a call whose units carry work of its own (the mark of an
      // Idempotency-Key, which must commit with the write). With batching off
      // (database/fast-paths.ts) every call runs alone.
      if (insideUnitOfWork() || !fastPath('turn-batch')) return alone(run, key);
      const scope = currentScope();
      if (scope?.unitEnd) return alone(run, key);
      if (scope?.deadline !== undefined) deadlines.set(key, Math.min(scope.deadline, deadlines.get(key) ?? Infinity));
      return loader.load(key);
    },
  };
}

/** `key` run as a batch of its own, in the caller's scope: its value, or its Error thrown. */
async function alone<K, V>(run: (keys: readonly K[]) => Promise<ArrayLike<V | Error>>, key: K): Promise<V> {
  const answer = Array.from(await run([key]))[0];
  if (answer instanceof Error) throw answer;
  return answer;
}

/** A failure as an Error: a batch answers each call with a value or an Error, nothing else. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Thrown by a batch's `together` when its one write was refused: nothing of any call was written. */
export class BatchRefused extends Error {}

/**
 * The one statement of a batch's `together`, its failure as BatchRefused: give it that
 * statement alone, so that what fails after it (a revision, an event) stays every call's.
 */
export async function batchStatement<R>(statement: Promise<R>): Promise<R> {
  try {
    return await statement;
  } catch {
    throw new BatchRefused();
  }
}

/**
 * The writes of a batch, each call's id (or other result) or Error, in order: several
 * `together` (one unit of work whose write is one statement), else each `alone` in a unit
 * of its own. `together` throws BatchRefused when the database refused its statement
 * (batchStatement), so that nothing of any call was written and each running alone is its
 * first and only run: a call's own problem (a taken key) is then its own answer. Any other failure of
 * `together` (its COMMIT, say) is every call's, as for units that share a MariaDB group.
 */
export async function writeTogetherOrAlone<T, R>(
  items: readonly T[],
  together: (items: readonly T[]) => Promise<R[]>,
  alone: (item: T) => Promise<R>,
): Promise<Array<R | Error>> {
  if (items.length > 1) {
    try {
      return await together(items);
    } catch (error) {
      if (!(error instanceof BatchRefused)) return items.map(() => asError(error));
    }
  }
  return Promise.all(items.map((item) => alone(item).catch(asError)));
}

/**
 * Reads of single objects by id, made in one turn, as one read: `readMany` returns the
 * objects it found of those ids, in any order; an id it did not find is a 404 naming
 * `resource`. Each call gets an object of its own, even when two asked for the same id,
 * so a caller may change what it got.
 *
 * The ids handed to `readMany` are padded to a power of two by repeating the last, so
 * that an `IN (...)` of them is one of eight statement texts, each prepared once per
 * connection (database/mysql-prepared.ts), not one per batch size. Inside a unit of work
 * `readMany` gets the one id alone and must read through `readManager` (see turnBatch).
 */
export function readsById<V extends object>(
  resource: string,
  idOf: (value: V) => number,
  readMany: (ids: number[]) => Promise<V[]>,
): TurnBatch<number, V> {
  return turnBatch<number, V>(async (ids) => {
    const found = new Map((await readMany(paddedToPowerOfTwo([...new Set(ids)]))).map((v) => [idOf(v), v]));
    const handedOut = new Set<number>();
    return ids.map((id) => {
      const value = found.get(id);
      if (value === undefined) return ApiError.notFound(resource);
      if (handedOut.has(id)) return structuredClone(value);
      handedOut.add(id);
      return value;
    });
  });
}

/** `ids` (at least one), padded in place: the last repeated up to the next power of two. */
export function paddedToPowerOfTwo(ids: number[]): number[] {
  let size = 1;
  while (size < ids.length) size *= 2;
  const last = ids[ids.length - 1];
  while (ids.length < size) ids.push(last);
  return ids;
}
