import { Inject, Injectable, Logger } from '@nestjs/common';
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { randomToken } from 'src/core/refs/random-token';
import { ApiCredential } from './api-credential.entity';

interface CachedCredential {
  id: number;
  digest: Buffer;
}

/** A credential table as read at one moment, by username. */
type Snapshot = Map<string, CachedCredential>;

/** An `Authorization` header that signed in, with the snapshot it was checked against. */
interface VerifiedHeader {
  user: { id: number; username: string };
  snapshot: Snapshot;
}

/** How long a snapshot of the credential table serves before it is read again. */
const SNAPSHOT_MS = 10_000;
/** Headers remembered at most (only ones that signed in; forgotten with their snapshot). */
const MAX_VERIFIED_HEADERS = 1000;
const DUMMY_DIGEST = Buffer.alloc(32);

/** One-shot digest (Node ≥ 20.12): no Hash object per request, unlike createHash().update().digest(). */
function sha256(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/** The key a header is remembered by: its digest (base64, 44 characters). */
function headerKey(header: string): string {
  return hash('sha256', header, 'base64');
}

/** Checks API credentials (constant time, no slow hash per request) and bootstraps the first one. */
@Injectable()
export class CredentialService {
  private readonly logger = new Logger('Auth');
  /** Every credential by username: the table is tiny and read on every request. */
  private snapshot: Snapshot | null = null;
  /** Headers that signed in, by the SHA-256 of the whole header. */
  private readonly verifiedHeaders = new Map<string, VerifiedHeader>();
  private snapshotAt = 0;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Returns the credential id when username and password match, else null. Given the
   * `Authorization` header they came in, a match is remembered for `recall`.
   */
  async verify(username: string, password: string, header?: string): Promise<number | null> {
    const { credential, snapshot } = await this.lookup(username);
    const candidate = sha256(password);
    // Compare even for unknown users so timing does not reveal which usernames exist.
    const matches = timingSafeEqual(candidate, credential?.digest ?? DUMMY_DIGEST);
    if (!credential || !matches) return null;
    if (header !== undefined && snapshot !== null) {
      if (this.verifiedHeaders.size >= MAX_VERIFIED_HEADERS) this.verifiedHeaders.clear();
      this.verifiedHeaders.set(headerKey(header), { user: { id: credential.id, username }, snapshot });
    }
    return credential.id;
  }

  /**
   * The credential an `Authorization` header signed in with, while the snapshot it was
   * checked against is the one in force (so a rotated password or a new snapshot checks it
   * again), else null: a request with the same header skips decoding it and hashing its
   * password. Headers are kept by their SHA-256, so the lookup compares digests, never the
   * secret itself, and only headers that signed in are kept.
   */
  recall(header: string): { id: number; username: string } | null {
    const snapshot = this.snapshot;
    if (snapshot === null || this.clock.now().getTime() - this.snapshotAt >= SNAPSHOT_MS) return null;
    const known = this.verifiedHeaders.get(headerKey(header));
    return known?.snapshot === snapshot ? known.user : null;
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
    this.snapshot = null;
    this.verifiedHeaders.clear();
    if (existing) {
      await repo.update(existing.api_credential_id, { secret_sha256: digest });
      return existing.api_credential_id;
    }
    const saved = await repo.save(repo.create({ username, secret_sha256: digest, write_datetime: this.clock.now() }));
    return saved.api_credential_id;
  }

  /**
   * Answers from a snapshot of the whole table, so a known and an unknown username take
   * the same path (no timing difference, no query per request). The snapshot is read
   * again when it is older than SNAPSHOT_MS, whichever username asks: a credential created
   * or rotated by another instance is seen here within that time.
   */
  private async lookup(username: string): Promise<{ credential: CachedCredential | null; snapshot: Snapshot | null }> {
    const now = this.clock.now().getTime();
    if (this.snapshot === null || now - this.snapshotAt >= SNAPSHOT_MS) await this.reload(now);
    const snapshot = this.snapshot;
    return { credential: snapshot?.get(username) ?? null, snapshot };
  }

  private reload(now: number): Promise<void> {
    this.loading ??= this.dataSource
      .getRepository(ApiCredential)
      .find({ select: { api_credential_id: true, username: true, secret_sha256: true } })
      .then((rows) => {
        this.snapshot = new Map(
          rows.map((row) => [
            row.username,
            { id: row.api_credential_id, digest: Buffer.from(row.secret_sha256, 'hex') },
          ]),
        );
        this.snapshotAt = now;
        this.verifiedHeaders.clear();
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }
}
