import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Marks requests the service makes to itself (the entries of a bulk request, which
 * already counted once toward the rate limit). The header carries a per-process
 * random secret, so a client cannot forge it; it is removed before anything else sees it.
 * An internal request names the client it runs for in `addressHeader`, believed only
 * with the secret (X-Forwarded-For is believed only from TRUST_PROXY's proxies).
 */
@Injectable()
export class InternalRequestMarker {
  readonly header = 'x-internal-request';
  readonly addressHeader = 'x-internal-client-address';
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
    const address = req.headers[this.marker.addressHeader];
    if (address !== undefined) {
      delete req.headers[this.marker.addressHeader];
      // The outer request's client, so that revisions and sign-in limits name it.
      if (req.internalRequest && typeof address === 'string') {
        Object.defineProperty(req, 'ip', { value: address, configurable: true });
      }
    }
    next();
  }
}
