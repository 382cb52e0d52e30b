import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ApiError } from 'src/core/envelope/api-error';
import { AuthenticatedUser } from 'src/core/context/request-context';
import { parseBasicAuthorization } from './basic-credentials';
import { CredentialService } from './credential.service';
import { LoginThrottle } from './login-throttle';
import { IS_PUBLIC } from './public.decorator';

/**
 * Global guard: every route needs valid HTTP Basic credentials (RFC 7617) unless marked
 * @Public(). Failed sign-ins are slowed by LoginThrottle (429 with Retry-After).
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialService,
    private readonly throttle: LoginThrottle,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { user?: AuthenticatedUser }>();
    const given = parseBasicAuthorization(req.headers.authorization);
    if (!given) throw ApiError.unauthorized();
    const address = req.ip ?? 'unknown';
    const wait = await this.throttle.retryAfter(address, given.username);
    if (wait > 0) {
      http.getResponse<Response>().setHeader('Retry-After', String(wait));
      throw new ApiError(429, 'Too many failed sign-in attempts. Please retry after the Retry-After delay.');
    }
    const id = await this.credentials.verify(given.username, given.password);
    if (id === null) {
      await this.throttle.failed(address, given.username);
      throw ApiError.unauthorized();
    }
    req.user = { apiCredentialId: id, username: given.username };
    return true;
  }
}
