import { INestApplication, Logger } from '@nestjs/common';
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Keep-alive connections idle this long after the signal are closed (then checked every
 * IDLE_SWEEP_MS). Until then a client sending on its kept socket is answered (with
 * `Connection: close`) rather than reset: closing a socket the moment it looks idle races a
 * request already on its way.
 */
const IDLE_GRACE_MS = 1000;
const IDLE_SWEEP_MS = 100;

/**
 * SIGTERM/SIGINT: stop accepting connections, answer the requests in flight with
 * `Connection: close`, close idle keep-alive connections (Node keeps serving a keep-alive
 * client that keeps sending, so a plain `server.close()` never finishes), then close the
 * app: jobs finish (JobQueue's beforeApplicationShutdown), then the database and Redis.
 * Exits 0 when done, 1 when `timeoutMs` passes first; a second signal exits at once.
 * Replaces Nest's enableShutdownHooks, whose close would wait for keep-alive clients.
 */
export function handleShutdownSignals(app: INestApplication, timeoutMs: number): void {
  const logger = new Logger('Shutdown');
  const server = app.getHttpServer() as Server;
  const inFlight = new Set<ServerResponse>();
  let draining = false;

  // First among the request listeners, so the header is set before Express answers.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });

  const drainAndClose = async (): Promise<void> => {
    // net.Server's close: stop accepting, resolve when every connection has ended. (http's
    // own close would also drop the idle keep-alive sockets at once, see IDLE_GRACE_MS.)
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    let sweeper: NodeJS.Timeout | undefined;
    const grace = setTimeout(() => {
      server.closeIdleConnections();
      sweeper = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS); // stop-check: deliberate, runs while the process exits, after the scheduler has stopped
    }, IDLE_GRACE_MS);
    await closed;
    clearTimeout(grace);
    clearInterval(sweeper);
    await app.close();
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    if (draining) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    draining = true;
    logger.log(`${signal}: draining ${inFlight.size} request(s), closing within ${timeoutMs} ms`);
    setTimeout(() => {
      logger.error(`Shutdown did not finish within ${timeoutMs} ms: exiting`);
      process.exit(1);
    }, timeoutMs).unref();
    drainAndClose().then(
      () => {
        logger.log('Shut down cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
