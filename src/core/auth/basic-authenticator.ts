import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from 'src/core/envelope/api-error';
import { AuthenticatedUser } from 'src/core/context/request-context';
import { parseBasicAuthorization } from './basic-credentials';
import { CredentialService } from './credential.service';
import { LoginThrottle } from './login-throttle';

/**
 * Checks a request's HTTP Basic credentials (RFC 7617) against the API credential table,
 * slowing failed sign-ins (429 with Retry-After): the verify step of HttpBasicStrategy
 * (passport-http), which reads the whole header itself because passport-http cuts the
 * password at its first colon (`user:pass:extra` would sign in as `user:pass`).
 */
@Injectable()
export class BasicAuthenticator {
  constructor(
    private readonly credentials: CredentialService,
    private readonly throttle: LoginThrottle,
  ) {}

  /** The signed-in API user; throws the 401 or 429 envelope otherwise. */
  async authenticate(req: Request, res: Response): Promise<AuthenticatedUser> {
    const header = req.headers.authorization;
    // A header that signed in before is not decoded and hashed again (CredentialService.recall).
    const recalled = header === undefined ? null : this.credentials.recall(header);
    const given = recalled ? null : parseBasicAuthorization(header);
    const username = recalled?.username ?? given?.username;
    if (username === undefined) throw ApiError.unauthorized();
    const address = req.ip ?? 'unknown';
    const wait = await this.throttle.retryAfter(address, username);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      throw new ApiError(429, 'Too many failed sign-in attempts. Please retry after the Retry-After delay.');
    }
    const id = recalled ? recalled.id : await this.credentials.verify(username, given?.password ?? '', header);
    if (id === null) {
      await this.throttle.failed(address, username);
      throw ApiError.unauthorized();
    }
    return { apiCredentialId: id, username };
  }
}
