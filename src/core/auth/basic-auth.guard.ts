import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Request } from 'express';
import { ApiError } from 'src/core/envelope/api-error';
import { AuthenticatedUser } from 'src/core/context/request-context';
import { BasicStrategy } from './basic.strategy';
import { IS_PUBLIC } from './public.decorator';

/** What passport calls on a strategy. */
interface Strategy {
  authenticate(req: Request, options?: object): void;
}

/** The outcome callbacks passport gives a strategy for one request. */
type StrategyRun = Strategy & {
  success(user: unknown): void;
  fail(challenge?: unknown, status?: number): void;
  error(err: unknown): void;
  pass(): void;
  redirect(url: string): void;
};

/**
 * Runs a passport strategy for one request, as `passport.authenticate` does (a child of the
 * strategy with the outcome callbacks), without passport's per-request middleware: that
 * adds login/logout methods and session fields to every request object, which the API
 * (stateless Basic auth) never uses and which cost a tenth of a simple read.
 */
export function runStrategy(strategy: Strategy, req: Request): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const run = Object.create(strategy) as StrategyRun;
    run.success = (user) => resolve(user);
    run.fail = () => resolve(false);
    run.pass = () => resolve(false);
    run.redirect = () => resolve(false);
    run.error = (err) => reject(err instanceof Error ? err : new Error(String(err)));
    run.authenticate(req, {});
  });
}

/** Global guard: every route needs valid Basic credentials (passport-http) unless marked @Public(). */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: BasicStrategy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const req = context.switchToHttp().getRequest<Request & { user?: AuthenticatedUser }>();
    const user = await runStrategy(this.strategy, req);
    if (!user) throw ApiError.unauthorized();
    req.user = user as AuthenticatedUser;
    return true;
  }
}
