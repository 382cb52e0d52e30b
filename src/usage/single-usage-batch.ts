import { ApiError } from 'src/core/envelope/api-error';
import { insertRow, insertRowsReturningIds } from 'src/database/insert-row';
import { isUniqueViolation } from 'src/database/unique-violation';
import { UnitOfWork } from 'src/database/unit-of-work';
import { UsageRecord } from './entities/usage-record.entity';

/** At most this many single records are resolved together and share one INSERT. */
const MAX_BATCH = 100;

/**
 * Turns a batch's records into their rows, in order, in as few reads as it can: a record
 * that cannot be written (its selector names no metered line) is its own 400.
 */
export type RowsOf<T> = (records: T[]) => Promise<Array<Partial<UsageRecord> | ApiError>>;

interface Waiting {
  resolve: (id: number) => void;
  reject: (error: unknown) => void;
}

interface Pending<T> extends Waiting {
  record: T;
}

interface Ready extends Waiting {
  row: Partial<UsageRecord>;
}

/** Thrown inside the batch's unit when its INSERT fails: the unit is rolled back, nothing written. */
class BatchInsertRefused extends Error {}

/**
 * Single `POST /usage` records that arrive in one turn of the event loop, resolved to their
 * lines together (one read for the batch, not one per record) and written as one multi-row
 * INSERT in one unit of work: on MariaDB the units of a group run one after another, two
 * statements each (SAVEPOINT, INSERT), so 16 records cost 32 round trips in a row where
 * one batch costs 2.
 *
 * Each record still gets what a request of its own would give it: a selector that names no
 * metered line is that record's 400 alone, and when the batch's INSERT fails (a key taken
 * already, by a racing request or twice in the batch, or any other refusal of one row), the
 * unit writes nothing and each record runs again in a unit of its own, so a taken key is
 * that record's 400 and one bad row fails alone. A failure after the INSERT succeeded (a
 * COMMIT whose outcome is unknown) is every record's, as it would be for units sharing a
 * group's COMMIT; none is written twice, as none runs again.
 */
export class SingleUsageBatch<T> {
  private pending: Array<Pending<T>> = [];

  constructor(
    private readonly uow: UnitOfWork,
    private readonly rowsOf: RowsOf<T>,
  ) {}

  insert(record: T): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.pending.push({ record, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    while (this.pending.length > 0) void this.write(this.pending.splice(0, MAX_BATCH));
  }

  private async write(batch: Array<Pending<T>>): Promise<void> {
    let rows: Array<Partial<UsageRecord> | ApiError>;
    try {
      rows = await this.rowsOf(batch.map((p) => p.record));
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    const ready: Ready[] = [];
    batch.forEach((p, i) => {
      const row = rows[i];
      if (row instanceof ApiError) p.reject(row);
      else ready.push({ row, resolve: p.resolve, reject: p.reject });
    });
    if (ready.length === 1) this.alone(ready[0]);
    else if (ready.length > 1) await this.together(ready);
  }

  private async together(batch: Ready[]): Promise<void> {
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
  private alone(p: Ready): void {
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
