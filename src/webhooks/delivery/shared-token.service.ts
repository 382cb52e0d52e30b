import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { isUniqueViolation } from 'src/database/unique-violation';
import { UnitOfWork } from 'src/database/unit-of-work';
import { AccountSecret } from 'src/webhooks/entities/account-secret.entity';

const TOKEN_NAME = 'webhook_security_token';

/**
 * The shared token of SPEC "Authentication" (X-Service-Key, `security_token`):
 * WEBHOOK_SECURITY_TOKEN, or one generated on first use and kept in the database so
 * every instance and every restart sends the same one.
 */
@Injectable()
export class SharedTokenService {
  private cached: string | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
  ) {}

  async token(): Promise<string> {
    if (this.config.webhookSecurityToken) return this.config.webhookSecurityToken;
    if (this.cached) return this.cached;
    const repo = this.dataSource.getRepository(AccountSecret);
    let row = await repo.findOneBy({ name: TOKEN_NAME });
    if (!row) {
      // Insert-if-absent: when two instances race, the primary key keeps the first one.
      await this.uow
        .run((tx) =>
          tx.manager.insert(AccountSecret, { name: TOKEN_NAME, value: randomBytes(24).toString('base64url') }),
        )
        .catch((error: unknown) => {
          if (!isUniqueViolation(error)) throw error;
        });
      row = await repo.findOneByOrFail({ name: TOKEN_NAME });
    }
    this.cached = row.value;
    return row.value;
  }
}
