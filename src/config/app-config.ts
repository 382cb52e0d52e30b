/** Typed view of the environment (DESIGN §3). Built once at start by `loadConfig`. */
export type DbType = 'sqlite' | 'mysql';
export type AppRole = 'api' | 'worker' | 'all';
export type DatetimeFormat = 'iso' | 'sql';
export type ExternalKeyOnDelete = 'keep' | 'clear' | 'mangle';
export type PaymentGatewayKind = 'test' | 'stripe';

/** Stripe's keys (DESIGN §3 STRIPE_*), set when PAYMENT_GATEWAY=stripe. */
export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** A Stripe-compatible server (tests); unset: Stripe's own. */
  apiUrl?: string;
}

/**
 * The data layer's speed mechanisms (database/fast-paths.ts), each of which DB_FAST_PATHS
 * (diagnostic) can turn off on its own.
 */
export const FAST_PATHS = [
  /** Units of one turn share a transaction and a COMMIT (sqlite-group-commit.ts, mysql-group-commit.ts). */
  'group-commit',
  /** Write-only rows wait for the transaction's end, one INSERT per table (deferred-inserts.ts). */
  'deferred-inserts',
  /** Calls of one event-loop turn across requests as one query (core/batching/turn-batch.ts). */
  'turn-batch',
  /** Prepared statements: mysql2 `execute` on MariaDB, a statement cache on SQLite (raw-query.ts). */
  'prepared-statements',
  /** Numbers bound as parameters on SQLite instead of written into the SQL (sqlite-number-binding.ts). */
  'sqlite-number-binding',
] as const;

export type FastPath = (typeof FAST_PATHS)[number];

export interface DbConfig {
  type: DbType;
  path: string;
  host: string;
  port: number;
  user: string;
  password: string;
  name: string;
  migrationsRun: boolean;
  /** DB_FAST_PATHS: the mechanisms on (all by default). */
  fastPaths: ReadonlySet<FastPath>;
}

/** How failed sign-ins are slowed (DESIGN §3 AUTH_*). */
export interface AuthThrottleConfig {
  windowSeconds: number;
  perAddress: number;
  perAddressUser: number;
  perUser: number;
}

/** How long the server waits on what it depends on (DESIGN §3 *_TIMEOUT_MS). */
export interface TimeoutConfig {
  dbConnectMs: number;
  dbStatementMs: number;
  redisCommandMs: number;
}

/**
 * Which proxies in front of the server are believed about the client's address
 * (`X-Forwarded-For`), as Express's `trust proxy` takes it: `false` (none, the default),
 * a hop count, or addresses and subnets (`loopback`, `10.0.0.0/8`, ...).
 */
export type TrustProxy = false | number | string[];

export interface AppConfig {
  port: number;
  /** TRUST_PROXY (DESIGN §3). */
  trustProxy: TrustProxy;
  /** REQUEST_TIMEOUT_MS: past it a request answers 503, its transaction rolled back. */
  requestTimeoutMs: number;
  appRole: AppRole;
  /**
   * JOB_CONCURRENCY: how many jobs of one name a consuming process runs at once. A job
   * mostly waits (a receiver's answer, a commit): at 4 a stream of 500 webhook events/s
   * queued behind itself (p99 8.6 s); past the connection pool (20) a job waits for one.
   */
  jobConcurrency: number;
  db: DbConfig;
  redisUrl?: string;
  apiUsername?: string;
  apiPassword?: string;
  publicUrl: string;
  timezone: string;
  datetimeFormat: DatetimeFormat;
  rateLimitPerMinute: number;
  authThrottle: AuthThrottleConfig;
  timeouts: TimeoutConfig;
  webhookSecurityToken?: string;
  webhookAllowPrivateTargets: boolean;
  usageUrl?: string;
  /** No answer from USAGE_URL within this is a failure (DESIGN §6 "Usage": 10 s). */
  usageUrlTimeoutMs: number;
  smtpUrl?: string;
  mailFrom: string;
  /** The business named on documents and mail; unset: the host of PUBLIC_URL. */
  businessName?: string;
  /** The seller's address on invoices, quotes and statements (lines split at `\n`); unset: none. */
  businessAddress?: string;
  /** The seller's tax id (VAT, EIN, ...) printed on documents; unset: none. */
  businessTaxId?: string;
  /** A PNG or JPEG logo file printed on documents; unset: none. */
  businessLogoPath?: string;
  /** Signs portal cookies; unset: derived from the stored account secret. */
  portalSessionSecret?: string;
  billingCron: string;
  achSettlementDays: number;
  /** Which gateway moves money (DESIGN §6 "Gateways"). */
  paymentGateway: PaymentGatewayKind;
  /** Set exactly when `paymentGateway` is `stripe`. */
  stripe?: StripeConfig;
  /** Dunning's last retry failed: cancel the subscription for non-payment (`canceled-nonpayment`). */
  dunningCancelAfterLastRetry: boolean;
  externalKeyOnDelete: ExternalKeyOnDelete;
  testClock: boolean;
  logLevel: string;
  /** Set: `/metrics` takes this bearer token instead of the API credential. */
  metricsToken?: string;
  /** A SIGTERM's drain and close must finish within this, or the process exits 1. */
  shutdownTimeoutMs: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
