import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from 'src/core/envelope/api-error';
import { JobQueue } from 'src/core/jobs/job-queue';
import { DueWork } from 'src/core/schedule/due-work';
import { DueWorkRegistry } from 'src/core/schedule/due-work-registry';
import { Clock } from './clock';
import { SharedTestClock } from './shared-test-clock';

/** A move longer than this logs its progress, at most once per this long. */
const PROGRESS_EVERY_MS = 5_000;

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
    const works = this.registry.all();
    let due = await this.dueMoments(works, from);
    // The first moment runs every work, as the moment moved to does: what was left due
    // before the move (an invoice issued just now, due for collection) is done then.
    let first = true;
    for (;;) {
      const next = earliest(due);
      if (!next || next.getTime() > target.getTime()) break;
      await this.runMoment(next, first ? works : works.filter((_, i) => due[i]?.getTime() === next.getTime()));
      first = false;
      due = await this.dueMoments(works, next);
      progress.step(next);
    }
    await this.runMoment(target, works);
    progress.done(this.clock.now());
    return this.clock.now();
  }

  /**
   * Runs `first` as of `at`, then, in rounds, the works that became due at `at` meanwhile
   * (each at most once a moment: one still due after its run waits for the next moment).
   */
  private async runMoment(at: Date, first: readonly DueWork[]): Promise<void> {
    this.clock.set(at);
    await this.shared.flushed();
    const ran = new Set<DueWork>();
    let round = first;
    while (round.length > 0) {
      for (const work of round) {
        ran.add(work);
        await this.registry.runOne(work, at);
      }
      await this.jobs.drain();
      const rest = this.registry.all().filter((w) => !ran.has(w));
      // Due at `at` = due strictly after the second before (the clock counts whole seconds).
      const again = await this.dueMoments(rest, new Date(at.getTime() - 1000));
      round = rest.filter((_, i) => (again[i]?.getTime() ?? Infinity) <= at.getTime());
    }
  }

  /** Each work's first due moment strictly after `after` (null: none, or it cannot say). */
  private dueMoments(works: readonly DueWork[], after: Date): Promise<Array<Date | null>> {
    return Promise.all(works.map((w) => (w.nextDueAfter ? w.nextDueAfter(after) : Promise.resolve(null))));
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

  done(at: Date): void {
    const seconds = (performance.now() - this.started) / 1000;
    if (seconds * 1000 < PROGRESS_EVERY_MS) return;
    this.logger.log(`Clock moved to ${at.toISOString()}: ${this.moments} due moments run in ${Math.round(seconds)} s`);
  }
}
