import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { Plugins, pluginMethod } from 'src/core/plugins/plugins';

/** Work a module does once per account date, inside the nightly job's claim; answers how many it handled. */
export type NightlyTask = (date: string) => Promise<number>;

/**
 * Marks a provider's method as a nightly task named `name` (e.g. quote/nightly): the
 * nightly job runs every task once per account date after its own work, so a module below
 * the job never has to import it.
 */
export const NightlyTask = pluginMethod<NightlyTask, string>();

/** The nightly tasks of every module, found at start (`@NightlyTask`). */
@Injectable()
export class NightlyTasks implements OnModuleInit {
  private readonly tasks = new Map<string, NightlyTask>();

  constructor(@Optional() private readonly plugins?: Plugins) {}

  onModuleInit(): void {
    for (const task of this.plugins?.methods(NightlyTask) ?? []) this.add(task.options, task.handler);
  }

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
