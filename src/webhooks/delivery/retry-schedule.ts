const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Waits before retries 1..9 (DESIGN §6 "Webhooks"): about 3 days in all. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  24 * HOUR,
  24 * HOUR,
];

/** The first attempt plus one per retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** How long to wait after the `failedAttempts`-th failure, or null when it is time to give up. */
export function retryDelayAfter(failedAttempts: number): number | null {
  return failedAttempts >= 1 && failedAttempts < MAX_ATTEMPTS ? RETRY_DELAYS_MS[failedAttempts - 1] : null;
}
