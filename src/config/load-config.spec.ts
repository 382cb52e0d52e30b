import { FAST_PATHS } from './app-config';
import { loadConfig } from './load-config';

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.appRole).toBe('all');
    expect(config.db).toEqual({
      type: 'sqlite',
      path: 'data/billing.sqlite',
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password: '',
      name: 'billing',
      migrationsRun: true,
      fastPaths: new Set(FAST_PATHS),
    });
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.timezone).toBe('America/Chicago');
    expect(config.datetimeFormat).toBe('iso');
    expect(config.rateLimitPerMinute).toBe(250);
    expect(config.authThrottle).toEqual({ windowSeconds: 60, perAddress: 30, perAddressUser: 10, perUser: 300 });
    expect(config.timeouts).toEqual({ dbConnectMs: 5000, dbStatementMs: 15000, redisCommandMs: 2000 });
    expect(config.trustProxy).toBe(false);
    expect(config.requestTimeoutMs).toBe(20_000);
    expect(config.externalKeyOnDelete).toBe('keep');
    expect(config.billingCron).toBe('*/5 * * * *');
    expect(config.achSettlementDays).toBe(3);
    expect(config.dunningCancelAfterLastRetry).toBe(false);
    expect(config.mailFrom).toBe('billing@localhost');
    expect(config.webhookAllowPrivateTargets).toBe(false);
    expect(config.usageUrlTimeoutMs).toBe(10_000);
    expect(config.testClock).toBe(false);
    expect(config.logLevel).toBe('info');
    expect(config.apiUsername).toBeUndefined();
    expect(config.apiPassword).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
  });

  it('builds the default PUBLIC_URL from PORT', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('parses every variable', () => {
    const config = loadConfig({
      PORT: '4000',
      TRUST_PROXY: '1',
      REQUEST_TIMEOUT_MS: '9000',
      APP_ROLE: 'worker',
      JOB_CONCURRENCY: '2',
      DB_TYPE: 'mysql',
      DB_PATH: ':memory:',
      DB_HOST: 'db.internal',
      DB_PORT: '3307',
      DB_USER: 'billing',
      DB_PASSWORD: 's3cret',
      DB_NAME: 'billing_test',
      DB_MIGRATIONS_RUN: 'false',
      DB_FAST_PATHS: '-group-commit',
      REDIS_URL: 'redis://cache:6379',
      API_USERNAME: 'admin',
      API_PASSWORD: 'pw',
      PUBLIC_URL: 'https://billing.example.com/',
      ACCOUNT_TIMEZONE: 'Europe/Paris',
      DATETIME_FORMAT: 'sql',
      RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOK_SECURITY_TOKEN: 'tok',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'TRUE',
      USAGE_URL: 'https://usage.example.com',
      USAGE_URL_TIMEOUT_MS: '2500',
      SMTP_URL: 'smtp://mail:25',
      BILLING_CRON: '0 * * * *',
      ACH_SETTLEMENT_DAYS: '5',
      DUNNING_CANCEL_AFTER_LAST_RETRY: 'true',
      EXTERNAL_KEY_ON_DELETE: 'mangle',
      TEST_CLOCK: '1',
      LOG_LEVEL: 'debug',
      AUTH_FAILURE_WINDOW_SECONDS: '120',
      AUTH_FAILURES_PER_ADDRESS: '40',
      AUTH_FAILURES_PER_ADDRESS_USER: '8',
      AUTH_FAILURES_PER_USER: '500',
      DB_CONNECT_TIMEOUT_MS: '3000',
      DB_STATEMENT_TIMEOUT_MS: '9000',
      REDIS_COMMAND_TIMEOUT_MS: '700',
      METRICS_TOKEN: 'scrape-token',
      SHUTDOWN_TIMEOUT_MS: '15000',
    });
    expect(config).toEqual({
      port: 4000,
      trustProxy: 1,
      requestTimeoutMs: 9000,
      appRole: 'worker',
      jobConcurrency: 2,
      db: {
        type: 'mysql',
        path: ':memory:',
        host: 'db.internal',
        port: 3307,
        user: 'billing',
        password: 's3cret',
        name: 'billing_test',
        migrationsRun: false,
        fastPaths: new Set(FAST_PATHS.filter((name) => name !== 'group-commit')),
      },
      redisUrl: 'redis://cache:6379',
      apiUsername: 'admin',
      apiPassword: 'pw',
      publicUrl: 'https://billing.example.com',
      timezone: 'Europe/Paris',
      datetimeFormat: 'sql',
      rateLimitPerMinute: 0,
      authThrottle: { windowSeconds: 120, perAddress: 40, perAddressUser: 8, perUser: 500 },
      timeouts: { dbConnectMs: 3000, dbStatementMs: 9000, redisCommandMs: 700 },
      webhookSecurityToken: 'tok',
      webhookAllowPrivateTargets: true,
      usageUrl: 'https://usage.example.com',
      usageUrlTimeoutMs: 2500,
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'billing@billing.example.com',
      billingCron: '0 * * * *',
      achSettlementDays: 5,
      paymentGateway: 'test',
      dunningCancelAfterLastRetry: true,
      externalKeyOnDelete: 'mangle',
      testClock: true,
      logLevel: 'debug',
      businessName: undefined,
      businessAddress: undefined,
      businessTaxId: undefined,
      businessLogoPath: undefined,
      metricsToken: 'scrape-token',
      portalSessionSecret: undefined,
      shutdownTimeoutMs: 15000,
    });
  });

  it('takes MAIL_FROM as given and keeps an empty BILLING_CRON (timer disabled)', () => {
    const config = loadConfig({ MAIL_FROM: 'invoices@shop.example', BILLING_CRON: '' });
    expect(config.mailFrom).toBe('invoices@shop.example');
    expect(config.billingCron).toBe('');
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['No', false],
  ])('reads boolean %s as %s', (raw, expected) => {
    expect(loadConfig({ TEST_CLOCK: raw }).testClock).toBe(expected);
  });

  it('treats empty optional variables as unset', () => {
    const config = loadConfig({ REDIS_URL: '', API_USERNAME: '', API_PASSWORD: '', PORT: '' });
    expect(config.redisUrl).toBeUndefined();
    expect(config.apiUsername).toBeUndefined();
    expect(config.port).toBe(3000);
  });

  it('lists every bad variable in one error', () => {
    const env = {
      PORT: '70000',
      DB_TYPE: 'postgres',
      ACCOUNT_TIMEZONE: 'Mars/Olympus',
      TEST_CLOCK: 'maybe',
      PUBLIC_URL: 'ftp://example.com',
      API_USERNAME: 'admin',
    };
    let message = '';
    try {
      loadConfig(env);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('PORT must be an integer from 0 to 65535 (got "70000")');
    expect(message).toContain('DB_TYPE must be one of sqlite, mysql (got "postgres")');
    expect(message).toContain('ACCOUNT_TIMEZONE must be an IANA time zone');
    expect(message).toContain('"Mars/Olympus"');
    expect(message).toContain('TEST_CLOCK must be true or false (got "maybe")');
    expect(message).toContain('PUBLIC_URL must be an http(s) URL (got "ftp://example.com")');
    expect(message).toContain('API_USERNAME and API_PASSWORD must be set together');
    expect(message.split('\n  - ')).toHaveLength(7);
  });

  it('reads DB_FAST_PATHS as all, none, the ones on, or the ones off', () => {
    const on = (raw: string) => [...loadConfig({ DB_FAST_PATHS: raw }).db.fastPaths].sort();
    expect(on('all')).toEqual([...FAST_PATHS].sort());
    expect(on('none')).toEqual([]);
    expect(on('group-commit, turn-batch')).toEqual(['group-commit', 'turn-batch']);
    expect(on('-group-commit,-turn-batch')).toEqual(
      FAST_PATHS.filter((name) => name !== 'group-commit' && name !== 'turn-batch').sort(),
    );
    expect(() => loadConfig({ DB_FAST_PATHS: 'group-commit,-turn-batch' })).toThrow(
      'DB_FAST_PATHS must be all, none, or a list of group-commit',
    );
    expect(() => loadConfig({ DB_FAST_PATHS: 'warp-drive' })).toThrow('(got "warp-drive")');
  });

  it.each(['abc', '-1', '3.5', '30x'])('refuses PORT=%s', (raw) => {
    expect(() => loadConfig({ PORT: raw })).toThrow(`PORT must be an integer from 0 to 65535 (got "${raw}")`);
  });

  it('refuses API_PASSWORD without API_USERNAME', () => {
    expect(() => loadConfig({ API_PASSWORD: 'pw' })).toThrow('API_USERNAME and API_PASSWORD must be set together');
  });

  it('refuses a colon in API_USERNAME (Basic auth could never match it)', () => {
    expect(() => loadConfig({ API_USERNAME: 'ad:min', API_PASSWORD: 'pw' })).toThrow(
      'API_USERNAME must not contain ":"',
    );
  });

  it('accepts a colon in API_PASSWORD (RFC 7617 ends the user-id at the first colon)', () => {
    expect(loadConfig({ API_USERNAME: 'admin', API_PASSWORD: 'p:w' }).apiPassword).toBe('p:w');
  });

  it.each([
    ['AUTH_FAILURES_PER_ADDRESS', '0'],
    ['DB_STATEMENT_TIMEOUT_MS', '10'],
    ['REDIS_COMMAND_TIMEOUT_MS', 'soon'],
  ])('refuses %s=%s', (name, raw) => {
    expect(() => loadConfig({ [name]: raw })).toThrow(`${name} must be an integer`);
  });

  it('refuses a PUBLIC_URL that is not a URL', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow('PUBLIC_URL must be an http(s) URL');
  });

  it('takes the seller settings, and refuses a BUSINESS_LOGO_PATH that is not an existing image file', () => {
    const config = loadConfig({ BUSINESS_ADDRESS: '1 Harbor Way\\nPortland OR', BUSINESS_TAX_ID: 'EIN 12-3456789' });
    expect(config).toMatchObject({ businessAddress: '1 Harbor Way\\nPortland OR', businessTaxId: 'EIN 12-3456789' });
    const problem = 'BUSINESS_LOGO_PATH must name an existing .png, .jpg or .jpeg file';
    expect(() => loadConfig({ BUSINESS_LOGO_PATH: '/nowhere/logo.png' })).toThrow(problem);
    expect(() => loadConfig({ BUSINESS_LOGO_PATH: __filename })).toThrow(problem);
  });

  it.each([
    ['none', false],
    ['0', false],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.7 ,fd00::/8', ['10.0.0.0/8', '192.168.1.7', 'fd00::/8']],
  ])('reads TRUST_PROXY=%s as Express trust proxy %p', (raw, expected) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it.each(['yes', '10.0.0.0/33', '300.1.1.1', 'loopback,'])('refuses TRUST_PROXY=%s', (raw) => {
    expect(() => loadConfig({ TRUST_PROXY: raw })).toThrow('TRUST_PROXY must be none, a hop count');
  });
});
