import 'reflect-metadata';
import { Process, Processor } from '@nestjs/bull';
import { Injectable, Module } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { APP_CONFIG } from 'src/config/app-config';
import { PluginsModule } from 'src/core/plugins/plugins.module';
import { InProcessJobQueue } from './in-process-job-queue';
import { BeforeEachJob, JobProcessors } from './job-processors';
import { JobOf, JOBS_QUEUE } from './job-queue';

/** What the jobs below saw, in order. */
const log: string[] = [];
/** The `slow` job waits for this to be called. */
let releaseSlow: () => void = () => undefined;

@Injectable()
@Processor(JOBS_QUEUE)
class Greeter {
  @Process('greet')
  greet(job: JobOf<{ name: string }>): void {
    log.push(`hello ${job.data.name}`);
  }

  @Process('fail')
  fail(): Promise<void> {
    return Promise.reject(new Error('boom'));
  }

  @Process('slow')
  async slow(job: JobOf<{ n: number }>): Promise<void> {
    log.push(`slow ${job.data.n} started`);
    await new Promise<void>((resolve) => (releaseSlow = resolve));
    log.push(`slow ${job.data.n} finished`);
  }
}

@Injectable()
@Processor('another-queue')
class ElsewhereProcessor {
  @Process('greet')
  greet(): void {
    log.push('wrong queue');
  }
}

@Injectable()
class Hooks {
  @BeforeEachJob()
  before(): Promise<void> {
    log.push('hook');
    return Promise.resolve();
  }
}

@Module({ providers: [Greeter, ElsewhereProcessor, Hooks] })
class JobsUnderTest {}

async function started(jobConcurrency = 4): Promise<{ moduleRef: TestingModule; queue: InProcessJobQueue }> {
  const moduleRef = await Test.createTestingModule({
    imports: [PluginsModule, JobsUnderTest],
    providers: [JobProcessors, InProcessJobQueue, { provide: APP_CONFIG, useValue: { jobConcurrency } }],
  }).compile();
  await moduleRef.init();
  return { moduleRef, queue: moduleRef.get(InProcessJobQueue) };
}

describe('InProcessJobQueue', () => {
  beforeEach(() => (log.length = 0));

  it('runs a job by its name with the @Process handler of a @Processor(JOBS_QUEUE), after the hooks', async () => {
    const { moduleRef, queue } = await started();
    expect(moduleRef.get(JobProcessors).names()).toEqual(['greet', 'fail', 'slow']);
    await queue.enqueue('greet', { name: 'Ada' });
    await queue.drain();
    expect(log).toEqual(['hook', 'hello Ada']);
    await moduleRef.close();
  });

  it('runs a job id only once while it is pending', async () => {
    const { moduleRef, queue } = await started();
    await queue.enqueue('greet', { name: 'once' }, { jobId: 'same' });
    await queue.enqueue('greet', { name: 'twice' }, { jobId: 'same' });
    await queue.drain();
    await queue.enqueue('greet', { name: 'again' }, { jobId: 'same' });
    await queue.drain();
    expect(log.filter((line) => line !== 'hook')).toEqual(['hello once', 'hello again']);
    await moduleRef.close();
  });

  it('keeps going after a failing job, and drops a job no handler takes', async () => {
    const { moduleRef, queue } = await started();
    await queue.enqueue('fail', {});
    await queue.enqueue('nobody', {});
    await queue.enqueue('greet', { name: 'after' });
    await queue.drain();
    expect(log.filter((line) => line !== 'hook')).toEqual(['hello after']);
    await moduleRef.close();
  });

  it('runs at most JOB_CONCURRENCY jobs of a name at once, the next when one ends', async () => {
    const { moduleRef, queue } = await started(1);
    await queue.enqueue('slow', { n: 1 });
    await queue.enqueue('slow', { n: 2 });
    await queue.enqueue('greet', { name: 'beside' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    // One lane for `slow`: the second waits; another name has lanes of its own.
    expect(log.filter((line) => line !== 'hook')).toEqual(['slow 1 started', 'hello beside']);
    expect(await queue.counts()).toEqual({ waiting: 1, active: 1 });
    releaseSlow();
    await new Promise((resolve) => setTimeout(resolve, 10));
    releaseSlow();
    await queue.drain();
    expect(log.filter((line) => line !== 'hook')).toEqual([
      'slow 1 started',
      'hello beside',
      'slow 1 finished',
      'slow 2 started',
      'slow 2 finished',
    ]);
    await moduleRef.close();
  });

  describe('with fake timers', () => {
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
    afterEach(() => jest.useRealTimers());

    it('runs a delayed job when its delay has passed, and drops pending ones on shutdown', async () => {
      const { moduleRef, queue } = await started();
      await queue.enqueue('greet', { name: 'later' }, { delayMs: 50 });
      await jest.advanceTimersByTimeAsync(49);
      expect(log).toEqual([]);
      await jest.advanceTimersByTimeAsync(1);
      expect(log).toEqual(['hook', 'hello later']);
      await queue.enqueue('greet', { name: 'never' }, { delayMs: 50 });
      queue.onApplicationShutdown();
      // Well past the delay: the job would have run by now had shutdown not dropped it.
      await jest.advanceTimersByTimeAsync(1_000);
      expect(log).toEqual(['hook', 'hello later']);
      await moduleRef.close();
    });
  });

  it('lets a running job finish before the app closes the database, and drops queued ones', async () => {
    const { moduleRef, queue } = await started();
    await queue.enqueue('slow', { n: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await queue.enqueue('slow', { n: 2 }, { delayMs: 10_000 });
    const closing = queue.beforeApplicationShutdown().then(() => log.push('closed'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['hook', 'slow 1 started']);
    releaseSlow();
    await closing;
    expect(log).toEqual(['hook', 'slow 1 started', 'slow 1 finished', 'closed']);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0 });
    await moduleRef.close();
  });
});
