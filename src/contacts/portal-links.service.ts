import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { WireFormat } from 'src/core/wire/wire-format';
import { Tx } from 'src/database/unit-of-work';
import { Contact } from 'src/customers/entities/contact.entity';
import { LoginToken } from './entities/login-token.entity';

export type LinkPurpose = 'login' | 'password-reset';

const LIFETIME_MS: Record<LinkPurpose, number> = {
  login: 5 * 60_000,
  'password-reset': 24 * 60 * 60_000,
};

const PATH: Record<LinkPurpose, string> = { login: 'portal/login', 'password-reset': 'portal/password-reset' };

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Single-use portal links. The token (32 random bytes) is only in the URL; the table
 * keeps its SHA-256, so a database leak cannot log anyone in.
 */
@Injectable()
export class PortalLinksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly wire: WireFormat,
  ) {}

  async issue(tx: Tx, userId: number, purpose: LinkPurpose, destination: string | null): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await tx.manager.insert(LoginToken, {
      user_id: userId,
      token_sha256: digest(token),
      purpose,
      destination,
      expires_datetime: new Date(this.clock.now().getTime() + LIFETIME_MS[purpose]),
      used_datetime: null,
    });
    return this.wire.pageUrl(`${PATH[purpose]}/${token}`);
  }

  /**
   * Uses a link once: the row is claimed by a conditional update, so two concurrent
   * uses cannot both succeed. Returns null when unknown, expired, already used, or when
   * its contact has been deleted since it was issued.
   */
  async consume(token: string, purpose: LinkPurpose): Promise<LoginToken | null> {
    const repo = this.dataSource.getRepository(LoginToken);
    const row = await repo.findOne({ where: { token_sha256: digest(token), purpose } });
    const now = this.clock.now();
    if (!row || row.used_datetime !== null || row.expires_datetime.getTime() <= now.getTime()) return null;
    if (!(await this.dataSource.getRepository(Contact).existsBy({ user_id: row.user_id }))) return null;
    const claimed = await repo.update(
      { login_token_id: row.login_token_id, used_datetime: IsNull() },
      { used_datetime: now },
    );
    return claimed.affected === 1 ? row : null;
  }
}
