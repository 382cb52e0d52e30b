import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { randomToken } from 'src/core/refs/random-token';
import { ApiCredential } from './api-credential.entity';

interface CachedCredential {
  id: number;
  digest: Buffer;
  loadedAt: number;
}

const CACHE_MS = 60_000;
const DUMMY_DIGEST = Buffer.alloc(32);

function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Checks API credentials (constant time, no slow hash per request) and bootstraps the first one. */
@Injectable()
export class CredentialService {
  private readonly logger = new Logger('Auth');
  private readonly cache = new Map<string, CachedCredential | null>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Returns the credential id when username and password match, else null. */
  async verify(username: string, password: string): Promise<number | null> {
    const credential = await this.lookup(username);
    const candidate = sha256(password);
    // Compare even for unknown users so timing does not reveal which usernames exist.
    const matches = timingSafeEqual(candidate, credential?.digest ?? DUMMY_DIGEST);
    return credential && matches ? credential.id : null;
  }

  /**
   * Makes sure a credential exists: API_USERNAME/API_PASSWORD are created or updated;
   * on an empty table without them, one is generated and printed once.
   */
  async bootstrap(): Promise<{ username: string; password: string } | null> {
    const repo = this.dataSource.getRepository(ApiCredential);
    if (this.config.apiUsername && this.config.apiPassword) {
      await this.upsert(this.config.apiUsername, this.config.apiPassword);
      return null;
    }
    if ((await repo.count()) > 0) return null;
    const generated = { username: randomToken(16), password: randomBytes(24).toString('base64url') };
    await this.upsert(generated.username, generated.password);
    this.logger.log(
      `Generated API credential for username ${generated.username} (the password is printed once at start)`,
    );
    return generated;
  }

  async upsert(username: string, password: string): Promise<number> {
    const repo = this.dataSource.getRepository(ApiCredential);
    const digest = sha256(password).toString('hex');
    const existing = await repo.findOne({ where: { username } });
    this.cache.delete(username);
    if (existing) {
      await repo.update(existing.api_credential_id, { secret_sha256: digest });
      return existing.api_credential_id;
    }
    const saved = await repo.save(repo.create({ username, secret_sha256: digest, write_datetime: this.clock.now() }));
    return saved.api_credential_id;
  }

  private async lookup(username: string): Promise<CachedCredential | null> {
    const cached = this.cache.get(username);
    const now = this.clock.now().getTime();
    if (cached !== undefined && (cached === null || now - cached.loadedAt < CACHE_MS)) return cached;
    // No stored username is longer than the column; never match one on a prefix.
    const row =
      username.length > 128
        ? null
        : await this.dataSource.getRepository(ApiCredential).findOne({ where: { username } });
    const entry = row
      ? { id: row.api_credential_id, digest: Buffer.from(row.secret_sha256, 'hex'), loadedAt: now }
      : null;
    if (this.cache.size > 1000) this.cache.clear();
    // Misses are not cached forever: a credential created by another instance shows up on the next request.
    if (entry) this.cache.set(username, entry);
    return entry;
  }
}
