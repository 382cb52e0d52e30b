import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from 'src/core/envelope/api-error';
import { JobQueue } from 'src/core/jobs/job-queue';
import { DueWork } from 'src/core/schedule/due-work';
import { DueWorkRegistry } from 'src/core/schedule/due-work-registry';
import { Clock } from './clock';
import { SharedTestClock } from './shared-test-clock';

/** A move longer than this logs its progress, at most once per this long. */
const PROGRESS_EVERY_MS = 5_000;
/** Due moments this close after the earliest one run in one step, as of the last of them. */
const GATHER_MS = 3_600_000;

/**
 * The test clock (DESIGN §6): moves the Clock forward and runs, in order and as of each
 * due moment on the way, the due work that has something to do then, waiting for the jobs
 * each moment queued before taking the next step, so work sees the time it was due at.
 * It jumps from one due moment to the next (each work's `nextDueAfter`), never through
 * timer ticks: a moment runs only the works due at it, then those that became due at it
 * through that work (a billing run's invoices due for collection), each once; the first
 * moment and the moment moved to run every work. With TEST_CLOCK=true the Clock is frozen at start-up and moves
 * only through here; every moment is stored (SharedTestClock) before its work runs, so
 * workers in other processes run the queued jobs as of it.
 */
@Injectable()
export class TestClock {
  private readonly logger = new Logger('TestClock');
  /** One move at a time: a second request waits for the first to finish its steps. */
  private moving: Promise<unknown> = Promise.resolve();
  /** The move in progress, which counts where its time goes. */
  private progress: MoveProgress | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly shared: SharedTestClock,
    private readonly registry: DueWorkRegistry,
    private readonly jobs: JobQueue,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  /** Moves to `target` (never back: 400), stepping through every due moment before it. */
  advanceTo(target: Date): Promise<Date> {
    const move = this.moving.then(() => this.stepTo(target));
    this.moving = move.catch(() => undefined);
    return move;
  }

  private async stepTo(target: Date): Promise<Date> {
    const from = this.clock.now();
    if (target.getTime() < from.getTime())
      throw ApiError.badRequest('Field "datetime": the clock only moves forward, never back.');
    const progress = new MoveProgress(this.logger, from, target);
    this.progress = progress;
    const works = this.registry.all();
    let due = await this.dueMoments(works, from);
    // The first moment runs every work, as the moment moved to does: what was left due
    // before the move (an invoice issued just now, due for collection) is done then.
    let first = true;
    for (;;) {
      const next = earliest(due);
      if (!next || next.getTime() > target.getTime()) break;
      const at = await this.gatheredUpTo(works, due, next, target);
      const running = first ? works : works.filter((_, i) => (due[i]?.getTime() ?? Infinity) <= at.getTime());
      await this.runMoment(at, running, next);
      first = false;
      due = await this.dueMoments(works, at);
      progress.step(at);
    }
    await this.runMoment(target, works, target);
    progress.done(this.clock.now());
    return this.clock.now();
  }

  /**
   * The moment a step runs as of, from the earliest due moment `next`: the last due moment
   * within GATHER_MS of it, before the next moment of an on-time work and not past `target`
   * (`next` itself when an on-time work is due then). Work due at moments close together
   * runs once, as a scheduler's tick runs it, each piece at most GATHER_MS late: 10,000
   * subscriptions whose cycles start a few minutes apart are billed in a few hundred steps,
   * not 10,000.
   */
  private async gatheredUpTo(
    works: readonly DueWork[],
    due: ReadonlyArray<Date | null>,
    next: Date,
    target: Date,
  ): Promise<Date> {
    const onTime = earliest(works.map((w, i) => (w.onTime ? due[i] : null)));
    if (onTime && onTime.getTime() <= next.getTime()) return next;
    const end = Math.min(next.getTime() + GATHER_MS, target.getTime(), (onTime?.getTime() ?? Infinity) - 1);
    let last = next.getTime();
    for (const [i, work] of works.entries()) {
      let at = due[i];
      if (!at || at.getTime() > end || !work.nextDueAfter) continue;
      for (;;) {
        const after: Date | null = await this.timed('next due', () => work.nextDueAfter!(at!));
        if (!after || after.getTime() > end) break;
        at = after;
      }
      last = Math.max(last, at.getTime());
    }
    return new Date(last);
  }

  /**
   * Runs `first` as of `at`, then, in rounds, the works that became due from `since` to `at`
   * meanwhile (each at most once a step: one still due after its run waits for the next).
   */
  private async runMoment(at: Date, first: readonly DueWork[], since: Date): Promise<void> {
    this.clock.set(at);
    await this.shared.flushed();
    const ran = new Set<DueWork>();
    let round = first;
    while (round.length > 0) {
      for (const work of round) {
        ran.add(work);
        await this.timed(work.name, () => this.registry.runOne(work, at));
      }
      await this.timed('jobs', () => this.jobs.drain());
      const rest = this.registry.all().filter((w) => !ran.has(w));
      // Due in the step = due strictly after the second before `since` (the clock counts whole seconds).
      const again = await this.dueMoments(rest, new Date(since.getTime() - 1000));
      round = rest.filter((_, i) => (again[i]?.getTime() ?? Infinity) <= at.getTime());
    }
  }

  /** Each work's first due moment strictly after `after` (null: none, or it cannot say). */
  private dueMoments(works: readonly DueWork[], after: Date): Promise<Array<Date | null>> {
    return this.timed('next due', () =>
      Promise.all(works.map((w) => (w.nextDueAfter ? w.nextDueAfter(after) : Promise.resolve(null)))),
    );
  }

  private async timed<T>(what: string, body: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await body();
    } finally {
      this.progress?.spent(what, performance.now() - started);
    }
  }
}

function earliest(moments: ReadonlyArray<Date | null>): Date | null {
  let first: Date | null = null;
  for (const at of moments) if (at && (!first || at.getTime() < first.getTime())) first = at;
  return first;
}

/** A long move's progress in the log: where the clock is, moments run, time spent. */
class MoveProgress {
  private readonly started = performance.now();
  private lastLog = this.started;
  private moments = 0;
  /** Milliseconds by what spent them (each work's run, the jobs it queued, next-due lookups). */
  private readonly spending = new Map<string, number>();

  constructor(
    private readonly logger: Logger,
    private readonly from: Date,
    private readonly target: Date,
  ) {}

  step(at: Date): void {
    this.moments++;
    const now = performance.now();
    if (now - this.lastLog < PROGRESS_EVERY_MS) return;
    this.lastLog = now;
    const span = this.target.getTime() - this.from.getTime();
    const share = span > 0 ? Math.round((100 * (at.getTime() - this.from.getTime())) / span) : 100;
    this.logger.log(
      `Moving the clock to ${this.target.toISOString()}: at ${at.toISOString()} (${share} %), ${this.moments} due moments run in ${Math.round((now - this.started) / 1000)} s`,
    );
  }

  spent(what: string, ms: number): void {
    this.spending.set(what, (this.spending.get(what) ?? 0) + ms);
  }

  done(at: Date): void {
    const seconds = (performance.now() - this.started) / 1000;
    if (seconds * 1000 < PROGRESS_EVERY_MS) return;
    const where = [...this.spending]
      .sort((a, b) => b[1] - a[1])
      .map(([what, ms]) => `${what} ${Math.round(ms / 100) / 10} s`)
      .join(', ');
    this.logger.log(
      `Clock moved to ${at.toISOString()}: ${this.moments} due moments run in ${Math.round(seconds)} s (${where})`,
    );
  }
}
