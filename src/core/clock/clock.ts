import { Injectable } from '@nestjs/common';

/**
 * The only source of "now" for business logic. Tests (and TEST_CLOCK) move it with
 * `set` / `advance`; it never goes backwards once set, so billing stays monotonic.
 */
@Injectable()
export class Clock {
  private frozenAt: number | null = null;

  /** Whole seconds: stored datetimes have second precision on every database. */
  now(): Date {
    const ms = this.frozenAt ?? Date.now();
    return new Date(ms - (ms % 1000));
  }

  /** Freezes the clock at `at`. */
  set(at: Date): void {
    this.frozenAt = at.getTime();
  }

  advance(ms: number): void {
    this.frozenAt = this.now().getTime() + ms;
  }

  /** Back to the system clock. */
  reset(): void {
    this.frozenAt = null;
  }
}
