import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ApiError } from 'src/core/envelope/api-error';
import { IS_PUBLIC } from './public.decorator';

/** Global guard: every route needs valid Basic credentials unless marked @Public(). */
@Injectable()
export class BasicAuthGuard extends AuthGuard('basic') {
  constructor(private readonly reflector: Reflector) {
    super({ session: false });
  }

  override canActivate(
    context: ExecutionContext,
  ): ReturnType<ReturnType<typeof AuthGuard>['prototype']['canActivate']> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    return super.canActivate(context);
  }

  override handleRequest<TUser>(err: unknown, user: TUser | false): TUser {
    if (err || !user) throw ApiError.unauthorized();
    return user;
  }
}
