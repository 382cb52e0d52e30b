import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Level } from 'pino';
import type { Options } from 'pino-http';
import pinoPretty from 'pino-pretty';
import { AppConfig } from 'src/config/app-config';
import { assignRequestId } from 'src/core/context/request-id';
import { AuthenticatedUser } from 'src/core/context/request-context';

/** LOG_LEVEL names (DESIGN §3) as pino's. */
const LEVELS: Record<string, Level> = { error: 'error', warn: 'warn', info: 'info', debug: 'debug', verbose: 'trace' };

/**
 * Never logged, wherever they turn up in a logged object. Bodies are not logged at all (the
 * serializers below keep a request's method, url and id only); these paths catch headers and
 * anything a log call passes by mistake.
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

type Req = IncomingMessage & { id?: unknown; user?: AuthenticatedUser; route?: { path?: string }; baseUrl?: string };

/**
 * One JSON line per answered request: request id, credential username, route template,
 * status and duration (`responseTime`, ms). Pretty lines when stdout is a terminal.
 */
export function pinoHttpOptions(config: AppConfig): Options<Req, ServerResponse> {
  // pino-pretty as a stream on this thread (not a worker transport): lines stay in order with
  // the process' other output, and nothing is left to flush at exit.
  const stream: DestinationStream = process.stdout.isTTY ? pinoPretty({ colorize: true }) : process.stdout;
  const level = LEVELS[config.logLevel] ?? 'info';
  // pino-http writes its one line per request at info; above that level nothing it binds is read.
  const writesRequestLines = pino.levels.values[level] <= pino.levels.values.info;
  return {
    level,
    stream,
    redact: { paths: REDACT, censor: '[redacted]' },
    genReqId: assignRequestId,
    // Called at the start (where req.route is the logger middleware's own) and at the end:
    // the route template is known only once the answer is on its way. Each object given
    // costs a child logger, so none is given where it would bind nothing (at the start,
    // before sign-in) or bind for a request line that is not written (LOG_LEVEL above info).
    customProps: (req, res) =>
      res.headersSent && writesRequestLines
        ? {
            username: req.user?.username,
            route: req.route?.path ? `${req.baseUrl ?? ''}${req.route.path}` : undefined,
          }
        : (undefined as unknown as object),
    // pino-http binds the request to a child logger on every request, at every level; its
    // wrapped serializer first copies the whole request (headers included) for ours to pick
    // four fields from. Unwrapped, ours reads the raw request directly.
    wrapSerializers: false,
    serializers: {
      req: (req: Req & { originalUrl?: string }) => ({
        id: req.id,
        method: req.method,
        url: req.originalUrl ?? req.url,
        remoteAddress: req.socket?.remoteAddress,
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      err: pino.stdSerializers.err,
    },
  };
}
