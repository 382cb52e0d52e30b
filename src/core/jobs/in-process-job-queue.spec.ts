import { InProcessJobQueue } from './in-process-job-queue';

describe('InProcessJobQueue', () => {
  it('runs a registered handler with its payload', async () => {
    const queue = new InProcessJobQueue();
    const seen: unknown[] = [];
    queue.register('greet', (payload) => {
      seen.push(payload);
      return Promise.resolve();
    });
    await queue.enqueue('greet', { name: 'Ada' });
    await queue.drain();
    expect(seen).toEqual([{ name: 'Ada' }]);
  });

  it('runs a job id only once while it is pending', async () => {
    const queue = new InProcessJobQueue();
    let runs = 0;
    queue.register('once', () => {
      runs++;
      return Promise.resolve();
    });
    await queue.enqueue('once', {}, { jobId: 'same' });
    await queue.enqueue('once', {}, { jobId: 'same' });
    await queue.drain();
    expect(runs).toBe(1);
    await queue.enqueue('once', {}, { jobId: 'same' });
    await queue.drain();
    expect(runs).toBe(2);
  });

  it('keeps going after a failing job', async () => {
    const queue = new InProcessJobQueue();
    const done: string[] = [];
    queue.register('fail', () => Promise.reject(new Error('boom')));
    queue.register('ok', () => {
      done.push('ok');
      return Promise.resolve();
    });
    await queue.enqueue('fail', {});
    await queue.enqueue('ok', {});
    await queue.drain();
    expect(done).toEqual(['ok']);
  });

  describe('with fake timers', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    /** A queue holding one job due in 50 ms, and how often it has run. */
    async function delayedJob(): Promise<{ queue: InProcessJobQueue; runs: () => number }> {
      const queue = new InProcessJobQueue();
      let runs = 0;
      queue.register('later', () => {
        runs++;
        return Promise.resolve();
      });
      await queue.enqueue('later', {}, { delayMs: 50 });
      return { queue, runs: () => runs };
    }

    it('runs a delayed job when its delay has passed', async () => {
      const { runs } = await delayedJob();
      await jest.advanceTimersByTimeAsync(49);
      expect(runs()).toBe(0);
      await jest.advanceTimersByTimeAsync(1);
      expect(runs()).toBe(1);
    });

    it('drops pending jobs on shutdown', async () => {
      const { queue, runs } = await delayedJob();
      queue.onApplicationShutdown();
      // Well past the delay: the job would have run by now had shutdown not dropped it.
      await jest.advanceTimersByTimeAsync(1_000);
      expect(runs()).toBe(0);
    });
  });

  it('lets a running job finish before the app closes the database, and drops queued ones', async () => {
    const queue = new InProcessJobQueue();
    let finish: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const log: string[] = [];
    queue.register('slow', async () => {
      log.push('started');
      started();
      await new Promise<void>((resolve) => (finish = resolve));
      log.push('finished');
    });
    await queue.enqueue('slow', {});
    await running;
    await queue.enqueue('slow', {}, { delayMs: 10_000 });
    const closing = queue.beforeApplicationShutdown().then(() => log.push('closed'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['started']);
    finish();
    await closing;
    expect(log).toEqual(['started', 'finished', 'closed']);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0 });
  });
});
