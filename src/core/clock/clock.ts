import { Injectable } from '@nestjs/common';

/**
 * The only source of "now" for business logic. Tests (and TEST_CLOCK) move it with
 * `set` / `advance`; it never goes backwards once set, so billing stays monotonic.
 */
@Injectable()
export class Clock {
  private frozenAt: number | null = null;
  private readonly setListeners: Array<(at: Date) => void> = [];

  /** Whole seconds: stored datetimes have second precision on every database. */
  now(): Date {
    const ms = this.frozenAt ?? Date.now();
    return new Date(ms - (ms % 1000));
  }

  /** Freezes the clock at `at` (and tells the shared test clock, which stores it). */
  set(at: Date): void {
    this.frozenAt = at.getTime();
    for (const listener of this.setListeners) listener(this.now());
  }

  advance(ms: number): void {
    this.set(new Date(this.now().getTime() + ms));
  }

  /** Back to the system clock. */
  reset(): void {
    this.frozenAt = null;
  }

  /** Takes a moment set elsewhere (another process moved the shared test clock): no listener is told. */
  follow(at: Date): void {
    this.frozenAt = at.getTime();
  }

  /** `listener` hears every `set` and `advance` (the shared test clock: SharedTestClock). */
  onSet(listener: (at: Date) => void): void {
    this.setListeners.push(listener);
  }
}
