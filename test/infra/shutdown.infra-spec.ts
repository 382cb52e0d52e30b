import { Agent, request } from 'node:http';
import { AUTH } from '../support/test-app';
import { killServer, scratchDatabase, ServerProcess, startServer } from '../support/server-process';

jest.setTimeout(180_000);

const SHUTDOWN_TIMEOUT_MS = 10_000;
const CLIENTS = 8;

interface Outcome {
  status?: number;
  connection?: string;
  error?: string;
}

/** One keep-alive GET; resolves with its answer or the socket error. */
function get(server: ServerProcess, agent: Agent, path: string): Promise<Outcome> {
  return new Promise((done) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, agent, headers: { Authorization: AUTH } },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode, connection: res.headers.connection }));
        res.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    req.end();
  });
}

describe('graceful shutdown (SIGTERM to the server process)', () => {
  let server: ServerProcess | undefined;
  let db: Awaited<ReturnType<typeof scratchDatabase>>;

  beforeAll(async () => {
    db = await scratchDatabase();
  });
  afterAll(async () => {
    await killServer(server);
    await db.drop();
  });

  it('answers every accepted request of a keep-alive burst, then exits 0 within the deadline', async () => {
    server = await startServer({ ...db.env, SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    const running = server;
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const pending = new Set<Promise<Outcome>>();
    const outcomes: Outcome[] = [];
    let signalled = false;
    let enoughTraffic: () => void = () => undefined;
    const warmedUp = new Promise<void>((done) => (enoughTraffic = done));

    // Each client sends requests back to back on its keep-alive socket until refused.
    const clients = Array.from({ length: CLIENTS }, async (_, n) => {
      for (;;) {
        const sent = get(running, agent, n % 2 === 0 ? '/api/v3/terms' : '/api/v3/customer?limit=5');
        pending.add(sent);
        const outcome = await sent;
        pending.delete(sent);
        outcomes.push(outcome);
        if (outcomes.length >= 40) enoughTraffic();
        if (outcome.error !== undefined || (signalled && outcome.connection === 'close')) return;
      }
    });

    await warmedUp;
    const inFlightAtSignal = [...pending];
    const signalledAt = Date.now();
    signalled = true;
    running.child.kill('SIGTERM');
    const exit = await running.exited;
    const took = Date.now() - signalledAt;
    await Promise.all(clients);
    agent.destroy();

    expect(exit).toEqual({ code: 0, signal: null });
    expect(took).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(inFlightAtSignal.length).toBeGreaterThan(0);
    // Those the server had not answered yet when the signal came say Connection: close.
    for (const outcome of await Promise.all(inFlightAtSignal)) expect(outcome.status).toBe(200);
    expect(outcomes.some((outcome) => outcome.connection === 'close')).toBe(true);
    // Nothing was cut off mid-answer: a request either got its answer or was never taken.
    for (const outcome of outcomes) {
      if (outcome.error !== undefined) expect(['ECONNREFUSED', 'ECONNRESET']).toContain(outcome.error);
      else expect(outcome.status).toBe(200);
    }
    expect(running.output()).toContain('Shut down cleanly');
  });
});
