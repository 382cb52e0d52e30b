import { ApiError } from 'src/core/envelope/api-error';
import {
  BatchRefused,
  batchStatement,
  paddedToPowerOfTwo,
  readsById,
  turnBatch,
  writeTogetherOrAlone,
} from './turn-batch';
import { CallScope, currentScope, runInScope } from 'src/database/call-scope';
import { FAST_PATHS } from 'src/config/app-config';
import { useFastPaths } from 'src/database/fast-paths';

describe('turnBatch', () => {
  it('hands the calls of one turn to one run, and answers each with its own value or error', async () => {
    const runs: number[][] = [];
    const batch = turnBatch<number, string>((keys) => {
      runs.push([...keys]);
      return Promise.resolve(keys.map((k) => (k < 0 ? new Error(`bad ${k}`) : `v${k}`)));
    });
    const answers = await Promise.allSettled([batch.load(1), batch.load(-2), batch.load(3)]);
    expect(runs).toEqual([[1, -2, 3]]);
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message))).toEqual([
      'v1',
      'bad -2',
      'v3',
    ]);
    // A later turn is a batch of its own.
    await expect(batch.load(4)).resolves.toBe('v4');
    expect(runs).toEqual([[1, -2, 3], [4]]);
  });

  it('splits a turn of more than 128 calls, and fails every call of a run that fails', async () => {
    const sizes: number[] = [];
    const batch = turnBatch<number, number>((keys) => {
      sizes.push(keys.length);
      return keys.includes(200) ? Promise.reject(new Error('database gone')) : Promise.resolve(keys);
    });
    const answers = await Promise.allSettled(Array.from({ length: 201 }, (_, i) => batch.load(i)));
    expect(sizes).toEqual([128, 73]);
    expect(answers.slice(0, 128).every((a) => a.status === 'fulfilled')).toBe(true);
    expect(answers.slice(128).every((a) => a.status === 'rejected')).toBe(true);
  });

  it("runs outside its callers' scopes, and gives each caller back its own", async () => {
    const seenInRun: Array<CallScope | undefined> = [];
    const batch = turnBatch<number, number>(async (keys) => {
      seenInRun.push(currentScope());
      await Promise.resolve();
      seenInRun.push(currentScope());
      return keys;
    });
    const first = { id: 'first' };
    const second = { id: 'second' };
    const unitEnded = { active: false };
    const afterLoad = await Promise.all([
      runInScope(
        { origin: first, unit: unitEnded },
        async () => [await batch.load(1), currentScope()?.origin] as const,
      ),
      runInScope({ origin: second }, async () => [await batch.load(2), currentScope()?.origin] as const),
    ]);
    expect(seenInRun).toEqual([undefined, undefined]);
    expect(afterLoad).toEqual([
      [1, first],
      [2, second],
    ]);
  });

  it("runs a call made inside a unit of work alone, at once, in the caller's scope", async () => {
    const scopes: Array<CallScope | undefined> = [];
    const run = jest.fn((keys: readonly number[]) => {
      scopes.push(currentScope());
      return Promise.resolve(keys.map((k) => (k < 0 ? new Error(`bad ${k}`) : k * 10)));
    });
    const batch = turnBatch<number, number>(run);
    const unit = { active: true };
    // Two calls of one turn inside the unit: two runs of one key each, not one batch.
    await expect(runInScope({ unit }, () => Promise.all([batch.load(1), batch.load(2)]))).resolves.toEqual([10, 20]);
    await expect(runInScope({ unit }, () => batch.load(-3))).rejects.toThrow('bad -3');
    expect(run.mock.calls).toEqual([[[1]], [[2]], [[-3]]]);
    expect(scopes.every((scope) => scope?.unit === unit)).toBe(true);
    // Once the unit's body has ended, calls are batched again, outside every scope.
    unit.active = false;
    await expect(runInScope({ unit }, () => Promise.all([batch.load(4), batch.load(5)]))).resolves.toEqual([40, 50]);
    expect(run.mock.calls.slice(3)).toEqual([[[4, 5]]]);
    expect(scopes[3]).toBeUndefined();
  });
  it('runs every call alone, at once, with turn batching off (DB_FAST_PATHS)', async () => {
    useFastPaths(new Set(FAST_PATHS.filter((name) => name !== 'turn-batch')));
    try {
      const runs: number[][] = [];
      const batch = turnBatch<number, string>((keys) => {
        runs.push([...keys]);
        return Promise.resolve(keys.map((k) => (k < 0 ? new Error(`bad ${k}`) : `v${k}`)));
      });
      const answers = await Promise.allSettled([batch.load(1), batch.load(-2), batch.load(3)]);
      expect(runs).toEqual([[1], [-2], [3]]);
      expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message))).toEqual([
        'v1',
        'bad -2',
        'v3',
      ]);
    } finally {
      useFastPaths(new Set(FAST_PATHS));
    }
  });
});

describe('writeTogetherOrAlone', () => {
  const messages = (answers: Array<number | Error>) => answers.map((a) => (a instanceof Error ? a.message : a));
  const alone = (n: number): Promise<number> =>
    n < 0 ? Promise.reject(new Error(`refused ${n}`)) : Promise.resolve(n * 10);

  it('writes several together, and one alone', async () => {
    const together = jest.fn((items: readonly number[]) => Promise.resolve(items.map((n) => n * 100)));
    expect(await writeTogetherOrAlone([1, 2], together, alone)).toEqual([100, 200]);
    expect(await writeTogetherOrAlone([3], together, alone)).toEqual([30]);
    expect(together).toHaveBeenCalledTimes(1);
  });

  it('writes each alone when together was refused, each answered with its own outcome', async () => {
    const refused = () => Promise.reject(new BatchRefused());
    expect(messages(await writeTogetherOrAlone([1, -2, 3], refused, alone))).toEqual([10, 'refused -2', 30]);
  });

  it('reads a failure of the one statement given to batchStatement as refused', async () => {
    await expect(batchStatement(Promise.resolve([7]))).resolves.toEqual([7]);
    await expect(batchStatement(Promise.reject(new Error('duplicate key')))).rejects.toBeInstanceOf(BatchRefused);
  });

  it('gives any other failure of together to every item, and runs none alone', async () => {
    const lost = () => Promise.reject(new Error('commit lost'));
    const aloneSpy = jest.fn(alone);
    expect(messages(await writeTogetherOrAlone([1, 2], lost, aloneSpy))).toEqual(['commit lost', 'commit lost']);
    expect(aloneSpy).not.toHaveBeenCalled();
  });
});

describe('readsById', () => {
  const rows = new Map([1, 2, 3].map((id) => [id, { id, name: `n${id}` }]));

  it('reads the ids of one turn once, answers a missing one with a 404, a repeated one with a copy', async () => {
    const asked: number[][] = [];
    const reads = readsById<{ id: number; name: string }>(
      'thing',
      (r) => r.id,
      (ids) => {
        asked.push(ids);
        return Promise.resolve(ids.flatMap((id) => (rows.has(id) ? [rows.get(id)!] : [])));
      },
    );
    const answers = await Promise.allSettled([reads.load(2), reads.load(9), reads.load(2), reads.load(1)]);
    expect(asked).toEqual([[2, 9, 1, 1]]);
    expect(answers[1]).toEqual({ status: 'rejected', reason: ApiError.notFound('thing') });
    expect((answers[1] as PromiseRejectedResult).reason.code).toBe(404);
    const [first, , again, one] = answers.map((a) => (a.status === 'fulfilled' ? a.value : null));
    expect([first, again, one]).toEqual([rows.get(2), rows.get(2), rows.get(1)]);
    expect(again).not.toBe(first);
  });
});

describe('paddedToPowerOfTwo', () => {
  it.each([
    [[5], [5]],
    [
      [5, 6],
      [5, 6],
    ],
    [
      [5, 6, 7],
      [5, 6, 7, 7],
    ],
    [
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5, 5, 5, 5],
    ],
  ])('%j -> %j', (ids, padded) => {
    expect(paddedToPowerOfTwo([...ids])).toEqual(padded);
  });
});
