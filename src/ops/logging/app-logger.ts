import { Inject, Injectable, LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';
import { ROOT_LOGGER } from './root-logger';

/**
 * Nest's logger over the application's pino logger (main.ts: `app.useLogger`): `log` is
 * pino's info, `verbose` its trace. The context (the last argument, as Nest's Logger passes
 * it) becomes the line's `context`; an object's fields or an Error (`err`) join the line.
 */
@Injectable()
export class AppLogger implements LoggerService {
  constructor(@Inject(ROOT_LOGGER) private readonly pino: Logger) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    let rest = params;
    if (params.length > 0) {
      fields.context = params[params.length - 1];
      rest = params.slice(0, -1);
    }
    if (message instanceof Error) {
      fields.err = message;
      this.pino[level](fields);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level](Object.assign(fields, message));
    } else if (level === 'error' && rest.length === 1 && typeof rest[0] === 'string' && /\n\s*at /.test(rest[0])) {
      // Nest's own exception handlers pass (message, stack, context).
      const err = new Error(String(message));
      err.stack = rest[0];
      fields.err = err;
      this.pino[level](fields);
    } else {
      this.pino[level](fields, String(message), ...rest);
    }
  }
}
