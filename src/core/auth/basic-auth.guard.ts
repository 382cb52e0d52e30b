import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AuthenticatedUser } from 'src/core/context/request-context';
import { BasicAuthenticator } from './basic-authenticator';
import { IS_PUBLIC } from './public.decorator';

/** Global guard: every route needs valid HTTP Basic credentials unless marked @Public(). */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: BasicAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { user?: AuthenticatedUser }>();
    req.user = await this.authenticator.authenticate(req, http.getResponse<Response>());
    return true;
  }
}
