import { Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { Plugins } from 'src/core/plugins/plugins';
import { runOutsideScopes } from 'src/database/call-scope';
import { DueWork } from './due-work';

/**
 * The one way a module plugs timed work in: it marks its provider `@DueWork()`, and the
 * registry finds every one at start; @nestjs/schedule triggers it (DueWorkScheduler) and
 * the test clock iterates it. Registration order (Plugins' order: modules as Nest starts
 * them) is the order works run in at one moment.
 */
@Injectable()
export class DueWorkRegistry implements OnModuleInit {
  private readonly logger = new Logger('Schedule');
  private readonly works: DueWork[] = [];

  constructor(@Optional() private readonly plugins?: Plugins) {}

  onModuleInit(): void {
    for (const { instance } of this.plugins?.classes(DueWork) ?? []) this.register(instance);
  }

  register(work: DueWork): void {
    if (this.works.some((w) => w.name === work.name)) throw new Error(`Due work "${work.name}" is registered twice`);
    this.works.push(work);
  }

  all(): readonly DueWork[] {
    return this.works;
  }

  /**
   * Runs one work as of `asOf`; a failure is logged, never thrown (the next tick retries).
   * It runs outside the scope of whatever called (the test clock's POST /_clock): timed work
   * is not the request's write, and is bound by neither its deadline nor its Idempotency-Key.
   */
  async runOne(work: DueWork, asOf: Date): Promise<void> {
    try {
      await new Promise<void>((resolve, reject) =>
        runOutsideScopes(() => void work.runDue(asOf).then(resolve, reject)),
      );
      this.logger.debug(`${work.name} ran as of ${asOf.toISOString()}`);
    } catch (error) {
      this.logger.error(`${work.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Runs every work as of `asOf`, in registration order. */
  async runAllDue(asOf: Date): Promise<void> {
    for (const work of this.works) await this.runOne(work, asOf);
  }

  /** The earliest moment strictly after `after` at which any work has something to do. */
  async nextDueAfter(after: Date): Promise<Date | null> {
    let next: Date | null = null;
    for (const work of this.works) {
      const at = work.nextDueAfter ? await work.nextDueAfter(after) : null;
      if (at && at.getTime() > after.getTime() && (!next || at.getTime() < next.getTime())) next = at;
    }
    return next;
  }
}
