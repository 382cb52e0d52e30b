import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from 'src/config/load-config';
import { Clock } from 'src/core/clock/clock';
import { ApiCredential } from './api-credential.entity';
import { CredentialService } from './credential.service';

describe('CredentialService', () => {
  let dataSource: DataSource;
  let clock: Clock;

  const service = (env: Record<string, string> = {}): CredentialService =>
    new CredentialService(dataSource, clock, loadConfig(env));
  const rows = (): Promise<ApiCredential[]> => dataSource.getRepository(ApiCredential).find();

  beforeEach(async () => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation();
    dataSource = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [ApiCredential],
      synchronize: true,
      logging: false,
    });
    await dataSource.initialize();
    clock = new Clock();
  });

  afterEach(async () => {
    await dataSource.destroy();
    jest.restoreAllMocks();
  });

  describe('verify', () => {
    it('returns the credential id for the right password only', async () => {
      const credentials = service();
      const id = await credentials.upsert('shop', 'correct horse');
      expect(id).toBeGreaterThan(0);
      expect(await credentials.verify('shop', 'correct horse')).toBe(id);
      expect(await credentials.verify('shop', 'correct horse ')).toBeNull();
      expect(await credentials.verify('shop', '')).toBeNull();
      expect(await credentials.verify('nobody', 'correct horse')).toBeNull();
      expect(await credentials.verify('SHOP', 'correct horse')).toBeNull();
    });

    it('tells two credentials apart', async () => {
      const credentials = service();
      const first = await credentials.upsert('one', 'pw-1');
      const second = await credentials.upsert('two', 'pw-2');
      expect(first).not.toBe(second);
      expect(await credentials.verify('one', 'pw-1')).toBe(first);
      expect(await credentials.verify('two', 'pw-2')).toBe(second);
      expect(await credentials.verify('one', 'pw-2')).toBeNull();
    });

    it('does not match a longer username on its first 128 characters', async () => {
      const credentials = service();
      const username = 'u'.repeat(128);
      const id = await credentials.upsert(username, 'pw');
      expect(await credentials.verify(username, 'pw')).toBe(id);
      expect(await credentials.verify(`${username}-someone-else`, 'pw')).toBeNull();
    });

    it('sees a credential created by another instance once its snapshot is 10 s old', async () => {
      clock.set(new Date('2026-01-15T12:00:00Z'));
      const reader = service();
      expect(await reader.verify('late', 'pw')).toBeNull();
      const id = await service().upsert('late', 'pw');
      clock.advance(9_000);
      expect(await reader.verify('late', 'pw')).toBeNull();
      clock.advance(1_000);
      expect(await reader.verify('late', 'pw')).toBe(id);
    });

    it('answers known and unknown usernames alike: one table read per snapshot, none per request', async () => {
      clock.set(new Date('2026-01-15T12:00:00Z'));
      const credentials = service();
      const id = await credentials.upsert('shop', 'pw');
      const find = jest.spyOn(dataSource.getRepository(ApiCredential).constructor.prototype, 'find');
      const findOne = jest.spyOn(dataSource.getRepository(ApiCredential).constructor.prototype, 'findOne');
      const answers = await Promise.all([
        credentials.verify('shop', 'pw'),
        credentials.verify('nobody', 'pw'),
        credentials.verify('shop', 'wrong'),
        credentials.verify('someone-else', 'x'),
      ]);
      expect(answers).toEqual([id, null, null, null]);
      expect(await credentials.verify('nobody-again', 'pw')).toBeNull();
      expect(find).toHaveBeenCalledTimes(1);
      expect(findOne).not.toHaveBeenCalled();
    });
  });

  describe('recall', () => {
    const header = `Basic ${Buffer.from('shop:pw-1').toString('base64')}`;

    it('knows a header only once it has signed in, and only that header', async () => {
      const credentials = service();
      const id = await credentials.upsert('shop', 'pw-1');
      expect(credentials.recall(header)).toBeNull();
      expect(await credentials.verify('shop', 'wrong', 'Basic c2hvcDp3cm9uZw==')).toBeNull();
      expect(credentials.recall('Basic c2hvcDp3cm9uZw==')).toBeNull();
      expect(await credentials.verify('shop', 'pw-1', header)).toBe(id);
      expect(credentials.recall(header)).toEqual({ id, username: 'shop' });
      expect(credentials.recall(`${header} `)).toBeNull();
    });

    it('forgets every header when a password changes or the snapshot is read again', async () => {
      const credentials = service();
      const id = await credentials.upsert('shop', 'pw-1');
      await credentials.verify('shop', 'pw-1', header);
      await credentials.upsert('shop', 'pw-2');
      expect(credentials.recall(header)).toBeNull();
      expect(await credentials.verify('shop', 'pw-1', header)).toBeNull();

      await credentials.verify('shop', 'pw-2', 'Basic c2hvcDpwdy0y');
      expect(credentials.recall('Basic c2hvcDpwdy0y')).toEqual({ id, username: 'shop' });
      // Past the snapshot's life the header is checked against the table again.
      const later = new Date(clock.now().getTime() + 10_000);
      jest.spyOn(clock, 'now').mockReturnValue(later);
      expect(credentials.recall('Basic c2hvcDpwdy0y')).toBeNull();
    });
  });

  it('stores the hex SHA-256 of the secret, never the secret', async () => {
    await service().upsert('shop', 'secret');
    const [row] = await rows();
    // sha256("secret"), worked out once with `printf secret | sha256sum`.
    expect(row.secret_sha256).toBe('2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b');
    expect(row.secret_sha256).toBe(createHash('sha256').update('secret').digest('hex'));
    expect(row.secret_sha256).not.toContain('secret');
  });

  describe('bootstrap', () => {
    it('creates the configured credential', async () => {
      const credentials = service({ API_USERNAME: 'admin', API_PASSWORD: 'first-password' });
      expect(await credentials.bootstrap()).toBeNull();
      const all = await rows();
      expect(all.map((row) => row.username)).toEqual(['admin']);
      expect(await credentials.verify('admin', 'first-password')).toBe(all[0].api_credential_id);
    });

    it('rotates the password of the configured credential', async () => {
      await service({ API_USERNAME: 'admin', API_PASSWORD: 'old-password' }).bootstrap();
      const restarted = service({ API_USERNAME: 'admin', API_PASSWORD: 'new-password' });
      expect(await restarted.bootstrap()).toBeNull();
      const all = await rows();
      expect(all).toHaveLength(1);
      expect(await restarted.verify('admin', 'old-password')).toBeNull();
      expect(await restarted.verify('admin', 'new-password')).toBe(all[0].api_credential_id);
    });

    it('upsert drops the cached digest, so the old password stops working at once', async () => {
      const credentials = service();
      const id = await credentials.upsert('admin', 'old');
      expect(await credentials.verify('admin', 'old')).toBe(id);
      expect(await credentials.upsert('admin', 'new')).toBe(id);
      expect(await credentials.verify('admin', 'old')).toBeNull();
      expect(await credentials.verify('admin', 'new')).toBe(id);
    });

    it('another instance picks up a rotation once its snapshot is 10 s old', async () => {
      clock.set(new Date('2026-01-15T12:00:00Z'));
      const other = service();
      const id = await service().upsert('admin', 'old');
      expect(await other.verify('admin', 'old')).toBe(id);
      await service().upsert('admin', 'new');
      clock.advance(10_000);
      expect(await other.verify('admin', 'old')).toBeNull();
      expect(await other.verify('admin', 'new')).toBe(id);
    });

    it('generates one credential on an empty table and prints it only once', async () => {
      const credentials = service();
      const generated = await credentials.bootstrap();
      expect(generated).not.toBeNull();
      expect(generated?.username).toMatch(/^[a-z0-9]{16}$/);
      expect(generated?.password.length).toBeGreaterThanOrEqual(24);
      const all = await rows();
      expect(all).toHaveLength(1);
      expect(all[0].secret_sha256).not.toBe(generated?.password);
      expect(await credentials.verify(generated?.username ?? '', generated?.password ?? '')).toBe(
        all[0].api_credential_id,
      );

      expect(await credentials.bootstrap()).toBeNull();
      expect(await service().bootstrap()).toBeNull();
      expect(await rows()).toHaveLength(1);
    });

    it('generates nothing when a credential already exists', async () => {
      await service().upsert('existing', 'pw');
      expect(await service().bootstrap()).toBeNull();
      expect((await rows()).map((row) => row.username)).toEqual(['existing']);
    });
  });
});
