import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { JobQueue } from 'src/core/jobs/job-queue';
import { compileTestModule } from './test-app';

/** The application's services on a real database, with no HTTP stack in front of them. */
export interface ServiceApp {
  /** The started module graph: `app.get(SomeService)`. */
  app: INestApplicationContext;
  config: AppConfig;
  dataSource: DataSource;
  clock: Clock;
  /** Waits for background jobs to finish. */
  drainJobs(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The service tier (test/service/*.service-spec.ts): the whole module graph started as an
 * application context, on the same fresh database as the HTTP tier, but with no HTTP
 * server, middleware or routes. For logic whose test gains nothing from a request.
 */
export async function createServiceApp(env: Record<string, string> = {}): Promise<ServiceApp> {
  const { config, moduleRef, dropDatabase } = await compileTestModule(env);
  moduleRef.useLogger(['error']);
  await moduleRef.init();
  const jobs = moduleRef.get(JobQueue);
  return {
    app: moduleRef,
    config,
    dataSource: moduleRef.get(DataSource),
    clock: moduleRef.get(Clock),
    drainJobs: () => jobs.drain(),
    close: async () => {
      await jobs.drain();
      await moduleRef.close();
      await dropDatabase();
    },
  };
}
