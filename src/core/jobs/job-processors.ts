import { Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { pluginMethod, Plugins } from 'src/core/plugins/plugins';
import { JobHandler, JobOf, JOBS_QUEUE } from './job-queue';

/**
 * Where `@nestjs/bull`'s decorators keep their options (`@Processor` on the class,
 * `@Process` on the method). The package does not export the keys; `job-processors.spec.ts`
 * proves these are the ones its decorators write.
 */
export const BULL_QUEUE_KEY = 'bull:module_queue';
export const BULL_PROCESS_KEY = 'bull:module_queue_process';

/** Marks a method that runs before each job this process runs (the shared test clock reads its moment). */
export const BeforeEachJob = pluginMethod<() => Promise<void>, void>();

/**
 * The background jobs, declared the way of `@nestjs/bull`: a provider marked
 * `@Processor(JOBS_QUEUE)` handles the job `name` in its `@Process(name)` method. Both
 * runners (Bull, in-process) take them from here, found at start through Nest's
 * DiscoveryService, with the `@BeforeEachJob()` hooks; nothing registers a job by hand.
 */
@Injectable()
export class JobProcessors implements OnModuleInit {
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<string, JobHandler>();
  private hooks: Array<() => Promise<void>> = [];

  constructor(@Optional() private readonly plugins?: Plugins) {}

  onModuleInit(): void {
    if (!this.plugins) return;
    this.hooks = this.plugins.methods(BeforeEachJob).map((hook) => hook.handler);
    for (const found of this.plugins.methodsWith<JobHandler, { name?: string }>(BULL_PROCESS_KEY)) {
      const queue = Reflect.getMetadata(BULL_QUEUE_KEY, found.owner.constructor) as { name?: string } | undefined;
      if (queue?.name !== JOBS_QUEUE) continue;
      const name = found.options.name;
      if (!name) throw new Error(`${found.name}: a job's @Process needs its name`);
      if (this.handlers.has(name)) throw new Error(`Job "${name}" has two @Process handlers`);
      this.handlers.set(name, found.handler);
    }
  }

  /** The job names this process can run. */
  names(): string[] {
    return [...this.handlers.keys()];
  }

  /** Runs the job's handler after the before-each hooks; a job no handler takes is logged and dropped. */
  async run(job: JobOf<Record<string, unknown>>): Promise<void> {
    const handler = this.handlers.get(job.name);
    if (!handler) {
      this.logger.warn(`No handler for job "${job.name}"`);
      return;
    }
    for (const hook of this.hooks) await hook();
    await handler(job);
  }
}
