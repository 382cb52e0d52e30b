import { Inject, Injectable } from '@nestjs/common';
import { doubleCsrf, DoubleCsrfUtilities } from 'csrf-csrf';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { PortalSecret } from './portal-secret';
import { PortalSessions } from './portal-session';

/**
 * CSRF protection of every portal form (csrf-csrf's signed double-submit cookie), tied to
 * the visitor id of the signed session cookie so a token from one browser fails in another.
 */
@Injectable()
export class PortalCsrf {
  private readonly utilities: DoubleCsrfUtilities;

  constructor(secret: PortalSecret, sessions: PortalSessions, @Inject(APP_CONFIG) config: AppConfig) {
    this.utilities = doubleCsrf({
      getSecret: () => secret.value(),
      getSessionIdentifier: (req: Request) => (req.res ? sessions.current(req.res).visitor : ''),
      cookieName: 'portal_csrf',
      cookieOptions: { sameSite: 'strict', secure: config.publicUrl.startsWith('https:'), httpOnly: true, path: '/' },
      getCsrfTokenFromRequest: (req: Request) => {
        const body = req.body as Record<string, unknown> | undefined;
        return typeof body?._csrf === 'string' ? body._csrf : null;
      },
    });
  }

  /** The token a page puts in its forms' hidden `_csrf` field. */
  token(req: Request, res: Response): string {
    return this.utilities.generateCsrfToken(req, res);
  }

  /** Calls `next` for safe methods and for posts that carry a valid token; `refuse` otherwise. */
  protect(req: Request, res: Response, next: () => void, refuse: () => void): void {
    this.utilities.doubleCsrfProtection(req, res, (error?: unknown) => (error ? refuse() : next()));
  }
}
