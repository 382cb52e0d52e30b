import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { BasicAuthenticator } from './basic-authenticator';
import { REQUEST_AUTHENTICATOR, RequestWithAuthenticator } from './http-basic.strategy';
import { IS_PUBLIC } from './public.decorator';

/**
 * Global guard: every route needs valid HTTP Basic credentials unless marked @Public().
 * The check is passport's (HttpBasicStrategy); `req.user` is the signed-in API user.
 */
@Injectable()
export class BasicAuthGuard extends AuthGuard('basic') {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: BasicAuthenticator,
  ) {
    super({ session: false });
  }

  override canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    context.switchToHttp().getRequest<RequestWithAuthenticator>()[REQUEST_AUTHENTICATOR] = this.authenticator;
    return super.canActivate(context) as Promise<boolean>;
  }
}
