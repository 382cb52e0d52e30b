import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Marks requests the service makes to itself (the entries of a bulk request, which
 * already counted once toward the rate limit). The header carries a per-process
 * random secret, so a client cannot forge it; it is removed before anything else sees it.
 */
@Injectable()
export class InternalRequestMarker {
  readonly header = 'x-internal-request';
  readonly secret = randomBytes(32).toString('hex');
  private readonly expected = Buffer.from(this.secret);

  isInternal(req: Request): boolean {
    const value = req.headers[this.header];
    if (value === undefined) return false;
    // Only when present: a delete turns the headers object into a slow dictionary.
    delete req.headers[this.header];
    if (typeof value !== 'string' || value.length !== this.secret.length) return false;
    return timingSafeEqual(Buffer.from(value), this.expected);
  }
}

export interface MarkedRequest extends Request {
  internalRequest?: boolean;
}

@Injectable()
export class InternalRequestMiddleware implements NestMiddleware {
  constructor(private readonly marker: InternalRequestMarker) {}

  use(req: MarkedRequest, _res: Response, next: NextFunction): void {
    req.internalRequest = this.marker.isInternal(req);
    next();
  }
}
