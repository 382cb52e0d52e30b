import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { BeforeEachJob } from 'src/core/jobs/job-processors';
import { isUniqueViolation } from 'src/database/unique-violation';
import { Clock } from './clock';
import { TestClockRow } from './test-clock-row.entity';

const ROW = 1;

/**
 * The test clock shared by every process of a deployment (TEST_CLOCK=true; issue 43): its
 * moment is one database row (`test_clock`). A process writes the row whenever its Clock is
 * set (a move, or a test's `clock.set`), and reads it again at the start of each unit of
 * outside work: each HTTP request (TestClockMiddleware) and each background job (its
 * `@BeforeEachJob()` hook), so a worker sees a move made by the API process from its next job on. A
 * read is one primary-key SELECT: cheaper than any request or job, and always right, where a
 * cache would need a check of the same cost. Due work needs no read: only the process that
 * moves the clock runs it, as of the moment it just wrote. Without TEST_CLOCK nothing here
 * runs: the real clock, no database read.
 */
@Injectable()
export class SharedTestClock implements OnModuleInit {
  private readonly logger = new Logger('TestClock');
  /** This process's writes of the row, in order. */
  private writes: Promise<void> = Promise.resolve();
  /** Counts this process's sets: a read that overlaps one is older than the set, and is dropped. */
  private localSets = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.testClock) return;
    const stored = await this.read();
    // The first process of a deployment freezes the clock at its start; the others take that.
    if (stored) this.clock.follow(stored);
    else await this.create(this.clock.now());
    this.clock.onSet((at) => this.write(at));
  }

  /** Takes the shared moment, once this process's own writes are stored. */
  @BeforeEachJob()
  async refresh(): Promise<void> {
    if (!this.config.testClock) return;
    const sets = this.localSets;
    await this.writes;
    const stored = await this.read();
    if (stored && sets === this.localSets) this.clock.follow(stored);
  }

  /** Resolves once every moment this process set is stored (others read it from then on). */
  flushed(): Promise<void> {
    return this.writes;
  }

  private write(at: Date): void {
    this.localSets++;
    this.writes = this.writes
      .then(() => this.dataSource.manager.update(TestClockRow, { clock_id: ROW }, { now_datetime: at }))
      .then(
        () => undefined,
        (error: unknown) =>
          this.logger.error(`Storing the test clock failed: ${error instanceof Error ? error.message : String(error)}`),
      );
  }

  private async read(): Promise<Date | null> {
    const row = await this.dataSource.manager.findOneBy(TestClockRow, { clock_id: ROW });
    return row?.now_datetime ?? null;
  }

  private async create(at: Date): Promise<void> {
    try {
      await this.dataSource.manager.insert(TestClockRow, { clock_id: ROW, now_datetime: at });
    } catch (error) {
      // Another process started at the same time and stored its moment first: take that.
      if (!isUniqueViolation(error)) throw error;
      const stored = await this.read();
      if (stored) this.clock.follow(stored);
    }
  }
}
