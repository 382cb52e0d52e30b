import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { isUniqueViolation } from 'src/database/unique-violation';
import { PortalKey } from './entities/portal-key.entity';

const KEY_NAME = 'session';

/**
 * The key that signs portal cookies and CSRF tokens: PORTAL_SESSION_SECRET, or one
 * generated on first start and kept in `portal_key`, so every instance and restart agree.
 * Loaded once at start: the cookie and CSRF middleware need it synchronously.
 */
@Injectable()
export class PortalSecret implements OnModuleInit {
  private secret: string | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    this.secret = this.config.portalSessionSecret ?? (await this.stored());
  }

  value(): string {
    if (this.secret === null) throw new Error('The portal secret is read before the module started.');
    return this.secret;
  }

  private async stored(): Promise<string> {
    const repo = this.dataSource.getRepository(PortalKey);
    const found = await repo.findOneBy({ name: KEY_NAME });
    if (found) return found.value;
    // Insert-if-absent: when two instances start together, the primary key keeps the first.
    await repo.insert({ name: KEY_NAME, value: randomBytes(32).toString('base64url') }).catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
    });
    return (await repo.findOneByOrFail({ name: KEY_NAME })).value;
  }
}
