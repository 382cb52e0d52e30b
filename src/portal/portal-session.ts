import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';

export const SESSION_COOKIE = 'portal_session';
const LIFETIME_MS = 60 * 60_000;

/** What the signed session cookie holds. `visitor` ties CSRF tokens to this browser. */
export interface PortalSession {
  visitor: string;
  userId: number | null;
  customerId: number | null;
  /** Epoch milliseconds (Clock time). */
  expires: number;
}

/** Where the middleware leaves the session of the current request. */
interface SessionLocals {
  portalSession?: PortalSession;
  portalSessionTampered?: boolean;
}

function locals(res: Response): SessionLocals {
  return res.locals as SessionLocals;
}

/**
 * Portal sessions in a signed (HMAC, by cookie-parser), HttpOnly, SameSite=Lax cookie
 * with an expiry inside the signed value: nothing to store server-side, and a changed
 * cookie fails its signature.
 */
@Injectable()
export class PortalSessions {
  private readonly secure: boolean;

  constructor(
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secure = config.publicUrl.startsWith('https:');
  }

  /** Reads the cookie (after cookie-parser); a visitor without a valid one gets a fresh, anonymous session. */
  load(req: Request, res: Response): void {
    const raw = (req.signedCookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
    const session = typeof raw === 'string' ? this.parse(raw) : null;
    // cookie-parser marks a cookie whose signature does not match as `false`.
    locals(res).portalSessionTampered = raw === false;
    if (session && session.expires > this.clock.now().getTime()) {
      locals(res).portalSession = session;
      return;
    }
    this.write(res, { visitor: randomBytes(16).toString('base64url'), userId: null, customerId: null, expires: 0 });
  }

  current(res: Response): PortalSession {
    const session = locals(res).portalSession;
    if (!session) throw new Error('The portal session middleware did not run for this route.');
    return session;
  }

  wasTampered(res: Response): boolean {
    return locals(res).portalSessionTampered === true;
  }

  /** A signed-in session for a contact; a new visitor id, so no earlier cookie carries over (session fixation). */
  signIn(res: Response, userId: number, customerId: number): PortalSession {
    return this.write(res, {
      visitor: randomBytes(16).toString('base64url'),
      userId,
      customerId,
      expires: this.clock.now().getTime() + LIFETIME_MS,
    });
  }

  signOut(res: Response): void {
    this.write(res, { visitor: randomBytes(16).toString('base64url'), userId: null, customerId: null, expires: 0 });
  }

  private write(res: Response, session: PortalSession): PortalSession {
    const anonymous = session.userId === null;
    const stored = anonymous ? { ...session, expires: this.clock.now().getTime() + LIFETIME_MS } : session;
    locals(res).portalSession = stored;
    // A sign-in replaces the anonymous cookie set earlier in the same response.
    const earlier = res.getHeader('Set-Cookie');
    const cookies = earlier === undefined ? [] : Array.isArray(earlier) ? earlier : [String(earlier)];
    res.setHeader(
      'Set-Cookie',
      cookies.filter((c) => !c.startsWith(`${SESSION_COOKIE}=`)),
    );
    res.cookie(SESSION_COOKIE, JSON.stringify(stored), {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/',
      maxAge: LIFETIME_MS,
    });
    return stored;
  }

  private parse(raw: string): PortalSession | null {
    try {
      const value = JSON.parse(raw) as Partial<PortalSession>;
      if (typeof value.visitor !== 'string' || typeof value.expires !== 'number') return null;
      return {
        visitor: value.visitor,
        userId: typeof value.userId === 'number' ? value.userId : null,
        customerId: typeof value.customerId === 'number' ? value.customerId : null,
        expires: value.expires,
      };
    } catch {
      return null;
    }
  }
}
