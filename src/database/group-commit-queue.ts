import { EntityManager, QueryRunner } from 'typeorm';

/**
 * One unit of work handed to the group-commit writer: it runs in a transaction shared with
 * other units, inside a savepoint of its own, once; whatever it does outside the database
 * waits for the commit (`Tx.afterCommit`).
 */
export type QueuedWork<T> = (manager: EntityManager) => Promise<T>;

/** A unit waiting in a writer's queue, with the promise its caller awaits. */
export interface QueuedUnit {
  work: QueuedWork<unknown>;
  /** Runs in a transaction of its own: its group's deferred rows were refused together. */
  alone?: boolean;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * The queue in front of a group-commit writer. The writes that arrive in one turn of the
 * event loop wait for the next turn, when `drain` takes them (and whatever arrives while
 * it runs) and settles each unit's promise.
 */
export abstract class GroupCommitQueue {
  protected readonly queue: QueuedUnit[] = [];
  private scheduled = false;

  constructor(protected readonly runner: () => QueryRunner) {}

  run<T>(work: QueuedWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve, reject });
      this.schedule();
    });
  }

  /** Empties the queue; the next `run` schedules another drain once this one has ended. */
  protected abstract drain(): Promise<void>;

  /** Whether a drain now would take units (a writer at its limit drains when a group ends). */
  protected mayDrain(): boolean {
    return this.queue.length > 0;
  }

  protected schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      void this.drain().finally(() => {
        this.scheduled = false;
        if (this.mayDrain()) this.schedule();
      });
    });
  }
}
