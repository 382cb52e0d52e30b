import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';

/**
 * The dashboard's browser-facing headers, as the portal's (portal-security.middleware.ts):
 * helmet's, with a content security policy that allows no script at all (the page has
 * none) and no caching of the figures. It has no cookie and no form that changes
 * anything (its one form is a GET), so there is nothing for a CSRF token to guard.
 */
@Injectable()
export class DashboardSecurityMiddleware implements NestMiddleware {
  private readonly headers: RequestHandler;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const https = config.publicUrl.startsWith('https:');
    this.headers = helmet({
      contentSecurityPolicy: {
        directives: {
          scriptSrc: ["'none'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: https ? [] : null,
        },
      },
      strictTransportSecurity: https,
    }) as RequestHandler;
  }

  use(req: Request, res: Response, next: NextFunction): void {
    res.setHeader('Cache-Control', 'no-store');
    this.headers(req, res, next);
  }
}
