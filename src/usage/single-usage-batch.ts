import { ApiError } from 'src/core/envelope/api-error';
import { insertRow, insertRowsReturningIds } from 'src/database/insert-row';
import { isUniqueViolation } from 'src/database/unique-violation';
import { UnitOfWork } from 'src/database/unit-of-work';
import { UsageRecord } from './entities/usage-record.entity';

/** At most this many single records share one INSERT. */
const MAX_BATCH = 100;

interface Pending {
  row: Partial<UsageRecord>;
  resolve: (id: number) => void;
  reject: (error: unknown) => void;
}

/** Thrown inside the batch's unit when its INSERT fails: the unit is rolled back, nothing written. */
class BatchInsertRefused extends Error {}

/**
 * Single `POST /usage` records that arrive in one turn of the event loop, written as one
 * multi-row INSERT in one unit of work: on MariaDB the units of a group run one after
 * another, two statements each (SAVEPOINT, INSERT), so 16 records cost 32 round trips in
 * a row where one batch costs 2.
 *
 * Each record still gets what a unit of its own would give it: when the batch's INSERT
 * fails (a key taken already, by a racing request or twice in the batch, or any other
 * refusal of one row), the unit writes nothing and each record runs again in a unit of
 * its own, so a taken key is that record's 400 and one bad row fails alone. A failure
 * after the INSERT succeeded (a COMMIT whose outcome is unknown) is every record's, as it
 * would be for units sharing a group's COMMIT; none is written twice, as none runs again.
 */
export class SingleUsageBatch {
  private pending: Pending[] = [];

  constructor(private readonly uow: UnitOfWork) {}

  insert(row: Partial<UsageRecord>): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      if (batch.length === 1) this.alone(batch[0]);
      else void this.together(batch);
    }
  }

  private async together(batch: Pending[]): Promise<void> {
    let ids: number[];
    try {
      ids = await this.uow.run(async (tx) => {
        try {
          return await insertRowsReturningIds(
            tx.manager,
            UsageRecord,
            batch.map((p) => p.row),
          );
        } catch {
          throw new BatchInsertRefused();
        }
      });
    } catch (error) {
      if (error instanceof BatchInsertRefused) for (const p of batch) this.alone(p);
      else for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => p.resolve(ids[i]));
  }

  /** One record in a unit of its own; its key, when taken, is a 400 naming it. */
  private alone(p: Pending): void {
    this.uow
      .run(async (tx) => {
        // The unique key checks the external key as the INSERT runs (no SELECT first): a
        // repeat, even one racing this request, fails here and only here.
        try {
          return await insertRow(tx.manager, UsageRecord, p.row);
        } catch (error) {
          if (p.row.external_key && isUniqueViolation(error)) throw keyTaken(p.row.external_key);
          throw error;
        }
      })
      .then(p.resolve, p.reject);
  }
}

export function keyTaken(key: string): ApiError {
  return ApiError.badRequest(`Field "external_key": usage with external key "${key}" was already recorded.`);
}
