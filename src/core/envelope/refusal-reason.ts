import type { Response } from 'express';

/** Runs of digits as long as a card or bank account number: never logged, even quoted back. */
const LONG_NUMBERS = /\d{12,}/g;

/**
 * A 4xx's reason for the request's log line (RequestLogMiddleware): the message the client
 * got, which names the field and the problem and never carries the body; long numbers in it
 * are masked all the same.
 */
export function noteRefusal(res: Response, message: string): void {
  (res.locals as { refusalReason?: string }).refusalReason = message.replace(LONG_NUMBERS, '[redacted]');
}

export function refusalOf(res: Response): string | undefined {
  return (res.locals as { refusalReason?: string } | undefined)?.refusalReason;
}
