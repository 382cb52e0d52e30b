/** Typed view of the environment (DESIGN §3). Built once at start by `loadConfig`. */
export type DbType = 'sqlite' | 'mysql';
export type AppRole = 'api' | 'worker' | 'all';
export type DatetimeFormat = 'iso' | 'sql';
export type ExternalKeyOnDelete = 'keep' | 'clear' | 'mangle';

export interface DbConfig {
  type: DbType;
  path: string;
  host: string;
  port: number;
  user: string;
  password: string;
  name: string;
  migrationsRun: boolean;
}

export interface AppConfig {
  port: number;
  appRole: AppRole;
  db: DbConfig;
  redisUrl?: string;
  apiUsername?: string;
  apiPassword?: string;
  publicUrl: string;
  timezone: string;
  datetimeFormat: DatetimeFormat;
  rateLimitPerMinute: number;
  webhookSecurityToken?: string;
  webhookAllowPrivateTargets: boolean;
  usageUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  billingCron: string;
  achSettlementDays: number;
  externalKeyOnDelete: ExternalKeyOnDelete;
  testClock: boolean;
  logLevel: string;
  /** Set: `/metrics` takes this bearer token instead of the API credential. */
  metricsToken?: string;
  /** A SIGTERM's drain and close must finish within this, or the process exits 1. */
  shutdownTimeoutMs: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
