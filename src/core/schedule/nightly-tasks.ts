import { Injectable } from '@nestjs/common';

/** Work a module does once per account date, inside the nightly job's claim; answers how many it handled. */
export type NightlyTask = (date: string) => Promise<number>;

/**
 * What other modules add to the nightly job (e.g. quote/nightly): the guest registers a
 * task from its own module, the nightly job runs every task once per account date after
 * its own work, so a module below the job never has to import it.
 */
@Injectable()
export class NightlyTasks {
  private readonly tasks = new Map<string, NightlyTask>();

  add(name: string, task: NightlyTask): void {
    if (this.tasks.has(name)) throw new Error(`Nightly task "${name}" is registered twice`);
    this.tasks.set(name, task);
  }

  /** Runs every task for the date, in registration order: how many each handled. */
  async runAll(date: string): Promise<Record<string, number>> {
    const done: Record<string, number> = {};
    for (const [name, task] of this.tasks) done[name] = await task(date);
    return done;
  }
}
