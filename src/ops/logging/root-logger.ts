import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import { AppConfig } from 'src/config/app-config';
import { currentScope } from 'src/database/call-scope';

/** LOG_LEVEL names (DESIGN §3) as pino's. */
const LEVELS: Record<string, Level> = { error: 'error', warn: 'warn', info: 'info', debug: 'debug', verbose: 'trace' };

/**
 * Never logged, wherever they turn up in a logged object. Bodies are not logged at all (the
 * serializers below keep a request's id, method, url and client address only); these paths
 * catch headers and anything a log call passes by mistake.
 */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.card_number',
  '*.cvv',
  '*.security_token',
  '*.secret',
  '*.authorization',
];

type Req = IncomingMessage & { id?: unknown; originalUrl?: string };

/** The injection token of the application's one pino logger (OpsModule provides it). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * The application's pino logger: JSON lines, pretty when stdout is a terminal. A line
 * written inside a write request (its unit of work too), and a request's error line, carry
 * the request (`req`: id, method, url, client address), taken from the call scope when it
 * is written; a read opens no scope. The line per request is RequestLogMiddleware's.
 */
export function createRootLogger(config: AppConfig): Logger {
  // pino-pretty as a stream on this thread (not a worker transport): lines stay in order with
  // the process' other output, and nothing is left to flush at exit.
  const stream: DestinationStream = process.stdout.isTTY ? pinoPretty({ colorize: true }) : process.stdout;
  return pino(
    {
      level: LEVELS[config.logLevel] ?? 'info',
      redact: { paths: REDACT, censor: '[redacted]' },
      // Read only when a line is written: a request that logs nothing (most reads, above info)
      // costs no child logger and no serialized request.
      mixin: () => {
        const origin = currentScope()?.origin;
        return origin ? { req: origin } : {};
      },
      // The serializers read the raw objects and pick four fields of a request.
      serializers: {
        req: (req: Req) => ({
          id: req.id,
          method: req.method,
          url: req.originalUrl ?? req.url,
          remoteAddress: req.socket?.remoteAddress,
        }),
        res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    stream,
  );
}
