import { CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { pickAction } from './actions';

/**
 * For a collection POST that only creates. `POST /<resource>?action=<name>` means the same
 * as `POST /<resource>/_action/<name>` (DESIGN §4 Actions), which a resource without
 * collection actions answers with a 400 naming the action; without this guard the query
 * would be ignored and the POST would create an object.
 */
@Injectable()
export class NoCollectionActionsGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const action = req.query.action;
    if (action !== undefined) pickAction({}, resourceOf(req.path), action);
    return true;
  }
}

/** The resource of a collection path: `/api/v3/customer` (a doubled slash tolerated) -> `customer`. */
function resourceOf(path: string): string {
  return (
    path
      .split('/')
      .filter((segment) => segment !== '')
      .pop() ?? ''
  );
}

/** Marks a collection POST as create-only: `?action=<name>` is a 400 (see NoCollectionActionsGuard). */
export const NoCollectionActions = (): MethodDecorator & ClassDecorator => UseGuards(NoCollectionActionsGuard);
