import 'reflect-metadata';
import { INestApplication, ModuleMetadata } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { AppModule } from 'src/app.module';
import { AppConfig } from 'src/config/app-config';
import { loadConfig } from 'src/config/load-config';
import { configureApp } from 'src/configure-app';
import { CredentialService } from 'src/core/auth/credential.service';
import { Clock } from 'src/core/clock/clock';
import { JobQueue } from 'src/core/jobs/job-queue';
import { createDatabaseFromTemplate } from './mysql-template';

export const API_USER = 'test-integration';
export const API_PASS = 'test-secret-0123456789';
export const AUTH = `Basic ${Buffer.from(`${API_USER}:${API_PASS}`).toString('base64')}`;

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  dataSource: DataSource;
  clock: Clock;
  /** Raw supertest agent (no credentials). */
  http: TestAgent;
  get(path: string): request.Test;
  post(path: string, body?: unknown): request.Test;
  put(path: string, body?: unknown): request.Test;
  del(path: string): request.Test;
  /** Waits for background jobs to finish. */
  drainJobs(): Promise<void>;
  close(): Promise<void>;
}

/** A test's configuration and its Nest module graph on a fresh database, not yet started. */
export interface TestModule {
  config: AppConfig;
  moduleRef: TestingModule;
  /** Drops the scratch MariaDB database (unless kept); nothing on SQLite. */
  dropDatabase: () => Promise<void>;
}

export interface TestModuleOptions {
  /** Keep the scratch MariaDB database at close (a restart test reopens it). */
  keepDatabase?: boolean;
  /** Modules a test adds beside the application's (a probe job processor). */
  imports?: NonNullable<ModuleMetadata['imports']>;
}

/**
 * The module graph of the whole application on a fresh database: SQLite in memory by
 * default, or a scratch MariaDB/MySQL database when DB_TYPE=mysql. Shared by the HTTP tier
 * (createTestApp) and the service tier (createServiceApp, no HTTP server).
 */
export async function compileTestModule(
  env: Record<string, string> = {},
  options: TestModuleOptions = {},
): Promise<TestModule> {
  const dbType = process.env.DB_TYPE ?? 'sqlite';
  // A unique name also keeps Redis keys (queues, rate-limit counters) apart between runs.
  // `env.DB_NAME` reopens a database kept by an earlier app (restart tests).
  const dbName = env.DB_NAME ?? `billing_t_${randomBytes(5).toString('hex')}`;
  const scratchDb = dbType === 'mysql' ? dbName : undefined;
  const config = loadConfig({
    ...process.env,
    DB_PATH: ':memory:',
    DB_NAME: dbName,
    API_USERNAME: API_USER,
    API_PASSWORD: API_PASS,
    RATE_LIMIT_PER_MINUTE: '0',
    // No billing timers: tests run billing and nightly jobs themselves, as of the Clock they set.
    BILLING_CRON: '',
    PUBLIC_URL: 'https://billing.example.test',
    LOG_LEVEL: 'error',
    ...env,
  });
  // A new scratch database is a copy of the migrated template; one kept by an earlier app
  // (env.DB_NAME) is opened as it is.
  if (scratchDb && !env.DB_NAME) await createDatabaseFromTemplate(config.db, scratchDb);

  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(config), ...(options.imports ?? [])],
  }).compile();
  return {
    config,
    moduleRef,
    dropDatabase: async () => {
      if (scratchDb && !options.keepDatabase) await mysqlAdmin(config, `DROP DATABASE IF EXISTS \`${scratchDb}\``);
    },
  };
}

/** A fresh app, with its HTTP stack, on a fresh database per test file. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: TestModuleOptions = {},
): Promise<TestApp> {
  const { config, moduleRef, dropDatabase } = await compileTestModule(env, options);
  const app = moduleRef.createNestApplication({ bodyParser: false, logger: ['error'] });
  configureApp(app);
  await app.init();
  await app.get(CredentialService).bootstrap();
  const http = request(app.getHttpServer() as Parameters<typeof request>[0]);
  const jobs = app.get(JobQueue);

  return {
    app,
    config,
    dataSource: app.get(DataSource),
    clock: app.get(Clock),
    http,
    get: (path) => http.get(path).set('Authorization', AUTH),
    post: (path, body) =>
      http
        .post(path)
        .set('Authorization', AUTH)
        .send(body as object),
    put: (path, body) =>
      http
        .put(path)
        .set('Authorization', AUTH)
        .send(body as object),
    del: (path) => http.delete(path).set('Authorization', AUTH),
    drainJobs: () => jobs.drain(),
    close: async () => {
      await jobs.drain();
      await app.close();
      await dropDatabase();
    },
  };
}

async function mysqlAdmin(config: AppConfig, sql: string): Promise<void> {
  const connection = await createConnection({
    host: config.db.host,
    port: config.db.port,
    user: config.db.user,
    password: config.db.password,
  });
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}
