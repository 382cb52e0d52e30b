import { existsSync } from 'node:fs';
import { IANAZone } from 'luxon';
import { isIP } from 'node:net';
import {
  AppConfig,
  AppRole,
  DatetimeFormat,
  DbType,
  FAST_PATHS,
  FastPath,
  ExternalKeyOnDelete,
  PaymentGatewayKind,
  StripeConfig,
  TrustProxy,
} from './app-config';

type Env = Record<string, string | undefined>;

/** Reads the environment once; every bad variable is listed in one error. */
export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const port = read.int('PORT', 3000, 0, 65535);
  const publicUrl = read.url('PUBLIC_URL', `http://localhost:${port}`).replace(/\/+$/, '');
  const config: AppConfig = {
    port,
    trustProxy: read.trustProxy('TRUST_PROXY'),
    requestTimeoutMs: read.int('REQUEST_TIMEOUT_MS', 20_000, 1_000, 600_000),
    appRole: read.oneOf<AppRole>('APP_ROLE', ['api', 'worker', 'all'], 'all'),
    jobConcurrency: read.int('JOB_CONCURRENCY', 32, 1, 256),
    db: {
      type: read.oneOf<DbType>('DB_TYPE', ['sqlite', 'mysql'], 'sqlite'),
      path: read.str('DB_PATH', 'data/billing.sqlite'),
      host: read.str('DB_HOST', '127.0.0.1'),
      port: read.int('DB_PORT', 3306, 1, 65535),
      user: read.str('DB_USER', 'root'),
      password: read.str('DB_PASSWORD', ''),
      name: read.str('DB_NAME', 'billing'),
      migrationsRun: read.bool('DB_MIGRATIONS_RUN', true),
      fastPaths: read.fastPaths('DB_FAST_PATHS'),
    },
    redisUrl: read.optional('REDIS_URL'),
    apiUsername: read.optional('API_USERNAME'),
    apiPassword: read.optional('API_PASSWORD'),
    publicUrl,
    timezone: read.timezone('ACCOUNT_TIMEZONE', 'America/Chicago'),
    datetimeFormat: read.oneOf<DatetimeFormat>('DATETIME_FORMAT', ['iso', 'sql'], 'iso'),
    rateLimitPerMinute: read.int('RATE_LIMIT_PER_MINUTE', 250, 0, 1_000_000),
    authThrottle: {
      windowSeconds: read.int('AUTH_FAILURE_WINDOW_SECONDS', 60, 1, 86_400),
      perAddress: read.int('AUTH_FAILURES_PER_ADDRESS', 30, 1, 1_000_000),
      perAddressUser: read.int('AUTH_FAILURES_PER_ADDRESS_USER', 10, 1, 1_000_000),
      perUser: read.int('AUTH_FAILURES_PER_USER', 300, 1, 1_000_000),
    },
    timeouts: {
      dbConnectMs: read.int('DB_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
      dbStatementMs: read.int('DB_STATEMENT_TIMEOUT_MS', 15_000, 100, 600_000),
      redisCommandMs: read.int('REDIS_COMMAND_TIMEOUT_MS', 2_000, 50, 600_000),
    },
    webhookSecurityToken: read.optional('WEBHOOK_SECURITY_TOKEN'),
    webhookAllowPrivateTargets: read.bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    usageUrl: read.optional('USAGE_URL'),
    usageUrlTimeoutMs: read.int('USAGE_URL_TIMEOUT_MS', 10_000, 100, 600_000),
    smtpUrl: read.optional('SMTP_URL'),
    mailFrom: read.str('MAIL_FROM', `billing@${hostOf(publicUrl)}`),
    businessName: read.optional('BUSINESS_NAME'),
    businessAddress: read.optional('BUSINESS_ADDRESS'),
    businessTaxId: read.optional('BUSINESS_TAX_ID'),
    businessLogoPath: read.optional('BUSINESS_LOGO_PATH'),
    portalSessionSecret: read.optional('PORTAL_SESSION_SECRET'),
    billingCron: read.str('BILLING_CRON', '*/5 * * * *'),
    achSettlementDays: read.int('ACH_SETTLEMENT_DAYS', 3, 0, 60),
    paymentGateway: read.oneOf<PaymentGatewayKind>('PAYMENT_GATEWAY', ['test', 'stripe'], 'test'),
    dunningCancelAfterLastRetry: read.bool('DUNNING_CANCEL_AFTER_LAST_RETRY', false),
    externalKeyOnDelete: read.oneOf<ExternalKeyOnDelete>('EXTERNAL_KEY_ON_DELETE', ['keep', 'clear', 'mangle'], 'keep'),
    testClock: read.bool('TEST_CLOCK', false),
    logLevel: read.oneOf('LOG_LEVEL', ['error', 'warn', 'info', 'debug', 'verbose'], 'info'),
    metricsToken: read.optional('METRICS_TOKEN'),
    shutdownTimeoutMs: read.int('SHUTDOWN_TIMEOUT_MS', 20_000, 1_000, 600_000),
  };
  const logo = config.businessLogoPath;
  if (logo !== undefined && !(/\.(png|jpe?g)$/i.test(logo) && existsSync(logo))) {
    problems.push('BUSINESS_LOGO_PATH must name an existing .png, .jpg or .jpeg file');
  }
  if ((config.apiUsername === undefined) !== (config.apiPassword === undefined)) {
    problems.push('API_USERNAME and API_PASSWORD must be set together');
  }
  // HTTP Basic ends the user-id at the first ":" (RFC 7617), so a colon in it could never
  // sign in: refuse it here rather than answer 401 forever. The password may hold one.
  if (config.apiUsername?.includes(':')) {
    problems.push('API_USERNAME must not contain ":" (HTTP Basic auth could never match it)');
  }
  // A short secret would make forged portal cookies guessable.
  if (config.portalSessionSecret !== undefined && config.portalSessionSecret.length < 32) {
    problems.push('PORTAL_SESSION_SECRET must be at least 32 characters');
  }
  if (config.paymentGateway === 'stripe') config.stripe = readStripe(read, problems);
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return config;
}

/** Loads `.env` from the working directory when present (values already set win). */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

/** Stripe's keys, each checked for the prefix Stripe gives it, so a swapped or pasted-wrong key stops the start. */
function readStripe(read: EnvReader, problems: string[]): StripeConfig {
  const key = (name: string, prefixes: string[], what: string): string => {
    const value = read.optional(name);
    if (value === undefined) problems.push(`${name} is required with PAYMENT_GATEWAY=stripe (${what})`);
    else if (!prefixes.some((p) => value.startsWith(p)) || /\s/.test(value)) {
      problems.push(`${name} must be ${what}, starting with ${prefixes.join(' or ')}`);
    }
    return value ?? '';
  };
  const apiUrl = read.optional('STRIPE_API_URL');
  return {
    secretKey: key(
      'STRIPE_SECRET_KEY',
      ['sk_test_', 'sk_live_', 'rk_test_', 'rk_live_'],
      "the account's secret API key",
    ),
    publishableKey: key('STRIPE_PUBLISHABLE_KEY', ['pk_test_', 'pk_live_'], "the account's publishable key"),
    webhookSecret: key('STRIPE_WEBHOOK_SECRET', ['whsec_'], "the webhook endpoint's signing secret"),
    apiUrl: apiUrl === undefined ? undefined : read.url('STRIPE_API_URL', '').replace(/\/+$/, '') || undefined,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'localhost';
  }
}

class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  optional(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  str(name: string, fallback: string): string {
    return this.env[name] ?? fallback;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.optional(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes'].includes(raw)) return true;
    if (['false', '0', 'no'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }

  /**
   * DB_FAST_PATHS (diagnostic): `all` (or unset), `none`, a comma-separated list of the
   * mechanisms on (`group-commit,turn-batch`), or of the ones off, each with a leading `-`
   * (`-group-commit,-turn-batch`: the rest on).
   */
  fastPaths(name: string): Set<FastPath> {
    const raw = this.optional(name)?.trim();
    if (raw === undefined || raw === 'all') return new Set(FAST_PATHS);
    if (raw === 'none') return new Set();
    const entries = raw.split(',').map((entry) => entry.trim());
    const off = entries.every((entry) => entry.startsWith('-'));
    const names = entries.map((entry) => entry.replace(/^-/, ''));
    const unknown = names.filter((entry) => !(FAST_PATHS as readonly string[]).includes(entry));
    if (unknown.length > 0 || (!off && entries.some((entry) => entry.startsWith('-')))) {
      this.problems.push(
        `${name} must be all, none, or a list of ${FAST_PATHS.join(', ')}, either all on or all off with a leading - (got "${raw}")`,
      );
      return new Set(FAST_PATHS);
    }
    const listed = new Set(names);
    return new Set(FAST_PATHS.filter((path) => listed.has(path) !== off));
  }

  url(name: string, fallback: string): string {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    try {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
      return raw;
    } catch {
      this.problems.push(`${name} must be an http(s) URL (got "${raw}")`);
      return fallback;
    }
  }

  /**
   * `none` (or unset): no proxy is believed; a number: that many hops in front; else a
   * comma-separated list of addresses, subnets (`10.0.0.0/8`) or Express's names
   * `loopback`, `linklocal`, `uniquelocal`.
   */
  trustProxy(name: string): TrustProxy {
    const raw = this.optional(name)?.trim();
    if (raw === undefined || raw === 'none') return false;
    if (/^\d+$/.test(raw) && Number(raw) <= 100) return Number(raw) === 0 ? false : Number(raw);
    const entries = raw.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !PROXY_NAMES.has(entry) && !isAddressOrSubnet(entry));
    if (bad.length === 0) return entries;
    this.problems.push(
      `${name} must be none, a hop count from 0 to 100, or addresses and subnets such as loopback, 10.0.0.0/8 (got "${raw}")`,
    );
    return false;
  }

  timezone(name: string, fallback: string): string {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!IANAZone.isValidZone(raw)) {
      this.problems.push(`${name} must be an IANA time zone such as America/Chicago (got "${raw}")`);
      return fallback;
    }
    return raw;
  }
}

/** Express's (proxy-addr's) names for address ranges. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrSubnet(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}
