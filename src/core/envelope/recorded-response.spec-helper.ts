import type { Response } from 'express';

/** What sendJson wrote to a RecordedResponse. */
export interface Recorded<Body = unknown> {
  status?: number;
  headers: Record<string, string | number>;
  /** The body, parsed back from the text written. */
  body?: Body;
  /** Ended without a body (HEAD). */
  bodyless?: boolean;
}

/** A stand-in Express response that records what is written to it, for unit specs. */
export function recordedResponse<Body = unknown>(
  options: { method?: string; headersSent?: boolean } = {},
): { res: Response; recorded: Recorded<Body> } {
  const recorded: Recorded<Body> = { headers: {} };
  const res = {
    req: { method: options.method ?? 'GET' },
    headersSent: options.headersSent ?? false,
    // Express gives every response its own `locals`; the filter notes a refusal's reason there.
    locals: {},
    set statusCode(code: number) {
      recorded.status = code;
    },
    setHeader(name: string, value: string | number) {
      recorded.headers[name] = value;
      return res;
    },
    end(text?: string) {
      if (text === undefined) recorded.bodyless = true;
      else recorded.body = JSON.parse(text) as Body;
      return res;
    },
  };
  return { res: res as unknown as Response, recorded };
}
