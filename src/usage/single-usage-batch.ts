import { batchStatement, turnBatch, TurnBatch, writeTogetherOrAlone } from 'src/core/batching/turn-batch';
import { ApiError } from 'src/core/envelope/api-error';
import { insertRow, insertRowsReturningIds } from 'src/database/insert-row';
import { isUniqueViolation } from 'src/database/unique-violation';
import { UnitOfWork } from 'src/database/unit-of-work';
import { UsageRecord } from './entities/usage-record.entity';

/**
 * Turns a batch's records into their rows, in order, in as few reads as it can: a record
 * that cannot be written (its selector names no metered line) is its own 400.
 */
export type RowsOf<T> = (records: readonly T[]) => Promise<Array<Partial<UsageRecord> | ApiError>>;

/**
 * Single `POST /usage` records that arrive in one turn of the event loop (core/batching),
 * resolved to their lines together (one read for the batch, not one per record) and
 * written as one multi-row INSERT in one unit of work: on MariaDB the units of a group run
 * one after another, two statements each (SAVEPOINT, INSERT), so 16 records cost 32 round
 * trips in a row where one batch costs 2.
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
  private readonly batch: TurnBatch<T, number>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly rowsOf: RowsOf<T>,
  ) {
    this.batch = turnBatch((records) => this.write(records));
  }

  /** The new record's id; rejects with its 400 (or the failure it shared). */
  insert(record: T): Promise<number> {
    return this.batch.load(record);
  }

  /** Each record's id or error, in order. */
  private async write(records: readonly T[]): Promise<Array<number | Error>> {
    const rows = await this.rowsOf(records);
    const written = await writeTogetherOrAlone(
      rows.filter((row): row is Partial<UsageRecord> => !(row instanceof ApiError)),
      (writable) => this.together(writable),
      (row) => this.alone(row),
    );
    let k = 0;
    return rows.map((row) => (row instanceof ApiError ? row : written[k++]));
  }

  /** The rows' ids, in order, from one INSERT; BatchRefused when the database refuses it. */
  private together(rows: ReadonlyArray<Partial<UsageRecord>>): Promise<number[]> {
    return this.uow.run((tx) => batchStatement(insertRowsReturningIds(tx.manager, UsageRecord, [...rows])));
  }

  /** One record in a unit of its own; its key, when taken, is a 400 naming it. */
  private alone(row: Partial<UsageRecord>): Promise<number> {
    return this.uow.run(async (tx) => {
      // The unique key checks the external key as the INSERT runs (no SELECT first): a
      // repeat, even one racing this request, fails here and only here.
      try {
        return await insertRow(tx.manager, UsageRecord, row);
      } catch (error) {
        if (row.external_key && isUniqueViolation(error)) throw keyTaken(row.external_key);
        throw error;
      }
    });
  }
}

export function keyTaken(key: string): ApiError {
  return ApiError.badRequest(`Field "external_key": usage with external key "${key}" was already recorded.`);
}
