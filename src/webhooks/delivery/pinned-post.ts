import { isIP, type LookupFunction } from 'node:net';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertOutsideUnitOfWork } from 'src/database/outside-call-guard';
import { VettedTarget } from './target-url-guard';

/** What a receiver answered, or why there was no answer. */
export interface PostOutcome {
  statusCode: number | null;
  /** The answer's body, cut to `maxBodyChars` (kept for the log). */
  body: string | null;
  error: string | null;
}

export interface PostOptions {
  timeoutMs: number;
  maxBodyChars: number;
}

/**
 * POSTs to the vetted address only: the socket's DNS lookup is replaced by one that
 * answers with the checked address, while Host and TLS SNI (and so certificate
 * checks) keep the name. Redirects are never followed; a 3xx is just an answer.
 */
export function postPinned(
  target: VettedTarget,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostOutcome> {
  assertOutsideUnitOfWork('webhook delivery');
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const req = send(
      {
        method: 'POST',
        hostname: target.hostname,
        port: target.url.port || undefined,
        path: `${target.url.pathname}${target.url.search}`,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        // SNI carries names only (RFC 6066); an IP literal target (relaxed mode) sends none.
        servername: isIP(target.hostname) === 0 ? target.hostname : '',
        agent: false,
      },
      (res) =>
        readBody(res, options.maxBodyChars, (text) =>
          finish({ statusCode: res.statusCode ?? null, body: text, error: null }),
        ),
    );
    // One deadline for connect, send and answer together.
    const deadline = setTimeout(() => {
      req.destroy();
      finish({ statusCode: null, body: null, error: `no answer within ${options.timeoutMs / 1000} s` });
    }, options.timeoutMs);
    req.on('error', (error) => finish({ statusCode: null, body: null, error: `connection failed: ${error.message}` }));
    req.end(body);
  });
}

/** Reads at most `maxChars` characters, then stops listening (a huge answer costs nothing). */
function readBody(res: IncomingMessage, maxChars: number, done: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    if (size >= maxChars * 4) return;
    chunks.push(chunk);
    size += chunk.length;
  });
  const end = (): void => done(Buffer.concat(chunks).toString('utf8').slice(0, maxChars));
  res.on('end', end);
  res.on('error', end);
  res.on('aborted', end);
}
