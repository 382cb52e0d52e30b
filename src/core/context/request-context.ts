import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** Who made a request and how: recorded on revisions, honoured by mail and webhooks. */
export interface RequestContext {
  /** The API credential (integration) that authenticated, if any. */
  integrationId: number | null;
  ip: string | null;
  onBehalfAddr: string | null;
  onBehalfDetails: string | null;
  sendEmails: boolean;
  sendWebhooks: boolean;
  /** The payer itself is acting (a hosted page): a charge may ask it to authenticate. */
  customerPresent?: boolean;
}

/** For work the service starts itself (billing runs, jobs). */
export const SYSTEM_CONTEXT: RequestContext = {
  integrationId: null,
  ip: null,
  onBehalfAddr: null,
  onBehalfDetails: null,
  sendEmails: true,
  sendWebhooks: true,
};

export interface AuthenticatedUser {
  apiCredentialId: number;
  username: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by BasicAuthGuard once the credentials are checked. */
    user?: AuthenticatedUser;
  }
}

function queryString(req: Request, name: string): string | null {
  const value = req.query[name];
  return typeof value === 'string' && value !== '' ? value.slice(0, 255) : null;
}

export function requestContextOf(req: Request): RequestContext {
  const user = req.user;
  return {
    integrationId: user?.apiCredentialId ?? null,
    ip: normaliseIp(req.ip),
    onBehalfAddr: queryString(req, 'on_behalf_addr')?.slice(0, 45) ?? null,
    onBehalfDetails: queryString(req, 'on_behalf_details'),
    sendEmails: queryString(req, '_flag_emails') !== '0',
    sendWebhooks: queryString(req, '_flag_webhooks') !== '0',
  };
}

/** `@Ctx() ctx: RequestContext` in a controller method. */
export const Ctx = createParamDecorator((_data: unknown, context: ExecutionContext): RequestContext =>
  requestContextOf(context.switchToHttp().getRequest<Request>()),
);

/** `::ffff:127.0.0.1` (IPv4 seen through an IPv6 socket) is stored as `127.0.0.1`. */
function normaliseIp(ip: string | undefined): string | null {
  if (!ip) return null;
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
