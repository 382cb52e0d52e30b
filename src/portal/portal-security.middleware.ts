import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { PortalCsrf } from './portal-csrf';
import { PortalPages } from './portal-pages';
import { PortalSecret } from './portal-secret';
import { PortalSessions } from './portal-session';

const STRIPE_SOURCES = {
  scriptSrc: ["'self'", 'https://js.stripe.com'],
  frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
  connectSrc: ["'self'", 'https://api.stripe.com'],
};

/**
 * Everything browser-facing that the API must not get: security headers (helmet), signed
 * cookies, the session and CSRF checks. Applied to the portal's controllers only.
 */
@Injectable()
export class PortalSecurityMiddleware implements NestMiddleware {
  private readonly headers: RequestHandler;
  private cookies: RequestHandler | null = null;

  constructor(
    private readonly secret: PortalSecret,
    private readonly sessions: PortalSessions,
    private readonly csrf: PortalCsrf,
    private readonly pages: PortalPages,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const https = config.publicUrl.startsWith('https:');
    this.headers = helmet({
      // Over plain http (development, tests) upgrading would send forms to a port with no TLS.
      contentSecurityPolicy: {
        directives: {
          upgradeInsecureRequests: https ? [] : null,
          // Stripe Elements: its script, its card iframes and its API (DESIGN §6 "Gateways").
          ...(config.paymentGateway === 'stripe' && STRIPE_SOURCES),
        },
      },
      strictTransportSecurity: https,
    }) as RequestHandler;
  }

  use(req: Request, res: Response, next: NextFunction): void {
    this.headers(req, res, (headerError?: unknown) => {
      if (headerError) return next(headerError);
      this.cookies ??= cookieParser(this.secret.value());
      this.cookies(req, res, (cookieError?: unknown) => {
        if (cookieError) return next(cookieError);
        this.sessions.load(req, res);
        this.csrf.protect(req, res, next, () =>
          this.pages.error(
            res,
            403,
            'This form could not be accepted: it has expired or did not come from this site. Go back, reload the page and try again.',
          ),
        );
      });
    });
  }
}
