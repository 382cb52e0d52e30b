import { pluginClass } from 'src/core/plugins/plugins';

/**
 * When the scheduler (outside the test clock) looks for a piece of due work:
 * `billing-cron` = on BILLING_CRON (billing runs, dunning, the nightly job; off when it is
 * empty), `interval` = every `everyMs` (bank settlement, webhook retries).
 */
export type DueWorkTrigger = { kind: 'billing-cron' } | { kind: 'interval'; everyMs: number };

/**
 * A piece of timed work a module plugs into the scheduler (DESIGN §2 `core/schedule`). It
 * says what it does "as of" a moment; it never runs by a timer of its own.
 */
export interface DueWork {
  /** Unique; names the work in logs. */
  readonly name: string;
  readonly trigger: DueWorkTrigger;
  /**
   * Runs as of its own due moments, never late (work per account date: the nightly job). The
   * test clock may run other work once for several moments close together, as of the last
   * of them (as a scheduler's tick does), but never across a moment of on-time work.
   */
  readonly onTime?: boolean;
  /**
   * Does whatever came due as of `asOf` (the Clock reads the same moment while it runs).
   * Idempotent, and it only enqueues or claims work: a second call for the same moment
   * (another instance, a repeated tick) changes nothing.
   */
  runDue(asOf: Date): Promise<void>;
  /**
   * The first moment strictly after `after` at which this work would have something to
   * do, or null for nothing known. Lets the test clock step through due moments in order;
   * work without it runs only at the moment the clock is moved to.
   */
  nextDueAfter?(after: Date): Promise<Date | null>;
}

/**
 * Marks a provider as a piece of due work: the registry finds it at start (DueWorkRegistry),
 * the scheduler triggers it and the test clock steps through it.
 */
export const DueWork = pluginClass<DueWork, void>();
