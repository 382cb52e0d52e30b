import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { AuthenticatedUser } from 'src/core/context/request-context';
import { MarkedRequest } from './internal-request-marker';

/**
 * One counter per API credential across all routes (not per route, as the library's
 * default key would be). Runs after authentication, so the credential is known.
 */
@Injectable()
export class CredentialThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const user = req.user as AuthenticatedUser | undefined;
    return Promise.resolve(user ? `credential:${user.apiCredentialId}` : `ip:${String(req.ip)}`);
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}`;
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<MarkedRequest>();
    // Unauthenticated (public) routes and the entries of a bulk request are not counted here.
    return Promise.resolve(!req.user || req.internalRequest === true);
  }

  /**
   * The library sets only `Retry-After` on a blocked request; a client that paces itself by
   * the `X-RateLimit-*` headers finds them on the 429 as well (nothing left, reset when the
   * block ends).
   */
  protected override throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const { res } = this.getRequestResponse(context);
    this.setResponseHeader(res, `${this.headerPrefix}-Limit`, detail.limit);
    this.setResponseHeader(res, `${this.headerPrefix}-Remaining`, 0);
    this.setResponseHeader(res, `${this.headerPrefix}-Reset`, detail.timeToBlockExpire);
    return super.throwThrottlingException(context, detail);
  }
}
