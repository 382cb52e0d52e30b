import { CallScope, currentScope, runInScope, Tx, UnitMark } from './call-scope';

/**
 * The scope of whoever asks for a unit of work, taken when they ask: a write group may run
 * the body later, from another caller's turn, whose scope (its request) it must not take.
 */
export function unitCaller(): CallScope | undefined {
  return currentScope();
}

/**
 * Runs a unit of work's body in its caller's scope with the mark set, so that everything
 * it awaits (and nothing after it) is known to be inside a database transaction, and a
 * line logged inside it names the caller's request.
 */
export async function runAsUnitBody<T>(caller: CallScope | undefined, tx: Tx, body: () => Promise<T>): Promise<T> {
  const mark: UnitMark = { active: true, tx };
  try {
    return await runInScope({ ...caller, unit: mark }, body);
  } finally {
    // Work the body started but did not await (a promise left running) is outside once it ends.
    mark.active = false;
  }
}

/** Whether the caller runs inside a unit of work's body. */
export function insideUnitOfWork(): boolean {
  return currentScope()?.unit?.active === true;
}

/** The transaction of the unit of work whose body the caller runs in; undefined outside any. */
export function currentUnit(): Tx | undefined {
  const unit = currentScope()?.unit;
  return unit?.active === true ? unit.tx : undefined;
}

/** Thrown when an outside call (gateway, HTTP, mail) is made inside a unit of work. */
export class OutsideCallInUnitOfWork extends Error {
  constructor(what: string) {
    super(
      `${what} inside a unit of work: calls outside the database run before the transaction ` +
        `(after committing what records them) or in Tx.afterCommit, never inside it.`,
    );
    this.name = 'OutsideCallInUnitOfWork';
  }
}

declare const outsideUnitBrand: unique symbol;

/**
 * The capability to call outside the database, checked by type: every outbound port (the
 * PaymentGateway's methods, `postPinned` for webhook deliveries and the USAGE_URL pull, the
 * mail transport) takes one as its first argument. A unit of work's body is handed a Tx,
 * which is not one; code outside units mints one with `outsideUnit` (which lint forbids
 * inside a `.run(` callback), and `Tx.afterCommit` hands one to its callback. A body that
 * closes over a capability minted outside it still compiles: the run-time check in every
 * port (assertOutsideUnitOfWork) is the backstop for that.
 */
export type OutsideUnit = { readonly [outsideUnitBrand]: 'outside every unit of work' };

const OUTSIDE = Object.freeze({}) as OutsideUnit;

/** The capability for `what` (a port call to come), refused at once inside a unit's body. */
export function outsideUnit(what: string): OutsideUnit {
  assertOutsideUnitOfWork(what);
  return OUTSIDE;
}

/**
 * Refuses an outside call made inside a unit of work's body: there it would hold the
 * transaction's locks while it waits, and would not be undone with the transaction.
 * Called by every PaymentGateway method, webhook delivery and mail sending.
 */
export function assertOutsideUnitOfWork(what: string): void {
  if (insideUnitOfWork()) throw new OutsideCallInUnitOfWork(what);
}
