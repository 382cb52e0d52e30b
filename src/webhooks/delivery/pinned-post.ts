import { isIP, type LookupFunction } from 'node:net';
import { Agent as HttpAgent, request as httpRequest, IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { assertOutsideUnitOfWork, OutsideUnit } from 'src/database/outside-call-guard';
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

/** Connections kept open to one receiver at once (more of its deliveries wait for one). */
export const SOCKETS_PER_TARGET = 16;
/** An idle connection is closed after this long, before a receiver's usual 5 s keep-alive ends. */
const IDLE_SOCKET_MS = 4_000;
/** Receivers whose connections are kept; the least recently used beyond this are closed. */
const MAX_AGENTS = 64;

/**
 * Keep-alive agents, one per receiver name, port and vetted address: a socket in an agent
 * was connected to that address, so reusing it never reaches an address that was not
 * vetted (when DNS changes, the new address gets an agent of its own).
 */
const agents = new Map<string, HttpAgent>();

function agentFor(target: VettedTarget): HttpAgent {
  const key = `${target.url.protocol}//${target.hostname}:${target.url.port}@${target.address}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key); // re-inserted below: the map's order is least recently used first
  } else {
    const options = { keepAlive: true, maxSockets: SOCKETS_PER_TARGET, timeout: IDLE_SOCKET_MS };
    agent = target.url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
  }
  agents.set(key, agent);
  for (const [oldKey, old] of agents) {
    if (agents.size <= MAX_AGENTS) break;
    agents.delete(oldKey);
    old.destroy();
  }
  return agent;
}

/**
 * POSTs to the vetted address only: the socket's DNS lookup is replaced by one that
 * answers with the checked address, while Host and TLS SNI (and so certificate
 * checks) keep the name. Redirects are never followed; a 3xx is just an answer.
 * Connections are kept open for the next delivery to the same receiver (agentFor).
 */
export function postPinned(
  _outside: OutsideUnit,
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
        agent: agentFor(target),
      },
      (res) =>
        readBody(res, options.maxBodyChars, (text) =>
          finish({ statusCode: res.statusCode ?? null, body: text, error: null }),
        ),
    );
    // One deadline for connect, send and answer together, from when the request has its
    // socket (not while it waits for one of the receiver's busy connections).
    let deadline: NodeJS.Timeout | undefined;
    req.once('socket', () => {
      deadline = setTimeout(() => {
        req.destroy();
        finish({ statusCode: null, body: null, error: `no answer within ${options.timeoutMs / 1000} s` });
      }, options.timeoutMs);
    });
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
