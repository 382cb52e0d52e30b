import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { SharedTokenService } from 'src/webhooks/delivery/shared-token.service';

/**
 * The key that signs portal cookies and CSRF tokens: PORTAL_SESSION_SECRET, or an HMAC
 * of the account secret stored in the database, so every instance and restart agree
 * without another stored value. Loaded once at start: the middleware needs it synchronously.
 */
@Injectable()
export class PortalSecret implements OnModuleInit {
  private secret: string | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly shared: SharedTokenService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.secret =
      this.config.portalSessionSecret ??
      createHmac('sha256', await this.shared.token())
        .update('portal-session')
        .digest('base64url');
  }

  value(): string {
    if (this.secret === null) throw new Error('The portal secret is read before the module started.');
    return this.secret;
  }
}
