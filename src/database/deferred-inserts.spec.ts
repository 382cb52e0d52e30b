import { openMemorySqlite } from 'src/database/memory-sqlite.spec-helper';
import { DataSource } from 'typeorm';
import { Revision } from 'src/core/revisions/revision.entity';
import {
  deferInsertsIn,
  deferredMark,
  dropDeferredSince,
  flushDeferredInserts,
  insertAtCommit,
  MAX_ROWS_PER_INSERT,
} from './deferred-inserts';
import { FAST_PATHS } from 'src/config/app-config';
import { useFastPaths } from './fast-paths';
import { insertRowsStatement } from './insert-row';

describe('deferred inserts', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await openMemorySqlite([Revision]);
  });
  afterAll(async () => {
    await dataSource.destroy();
  });
  beforeEach(async () => {
    await dataSource.getRepository(Revision).clear();
  });

  const revision = (contextId: number, note = `note ${contextId}`) => ({
    context_str: 'customer',
    context_id: contextId,
    integration_id: null,
    revision_datetime: new Date('2026-11-25T12:00:00Z'),
    revision_ipaddr: '203.0.113.9',
    revision_note: note,
  });
  const stored = async () =>
    (await dataSource.getRepository(Revision).find({ order: { revision_id: 'ASC' } })).map((r) => r.context_id);

  it('inserts at once in a transaction no writer opened for deferral', async () => {
    await dataSource.transaction(async (manager) => {
      await insertAtCommit(manager, Revision, revision(1));
      expect(await manager.countBy(Revision, { context_id: 1 })).toBe(1);
    });
  });

  it('inserts at once, even where a writer opened deferral, with the mechanism off (DB_FAST_PATHS)', async () => {
    useFastPaths(new Set(FAST_PATHS.filter((name) => name !== 'deferred-inserts')));
    try {
      await dataSource.transaction(async (manager) => {
        deferInsertsIn(manager);
        await insertAtCommit(manager, Revision, revision(2));
        expect(await manager.countBy(Revision, { context_id: 2 })).toBe(1);
        await flushDeferredInserts(manager);
      });
      expect(await stored()).toEqual([2]);
    } finally {
      useFastPaths(new Set(FAST_PATHS));
    }
  });

  it('writes nothing until the flush, then every row in the order it came', async () => {
    await dataSource.transaction(async (manager) => {
      deferInsertsIn(manager);
      for (const id of [5, 3, 9]) await insertAtCommit(manager, Revision, revision(id));
      // A row without the IP sets other columns: it goes in a statement of its own.
      await insertAtCommit(manager, Revision, { ...revision(4), revision_ipaddr: undefined });
      expect(await manager.count(Revision)).toBe(0);
      await flushDeferredInserts(manager);
      // Flushed: later rows are no longer deferred.
      await insertAtCommit(manager, Revision, revision(7));
    });
    expect(await stored()).toEqual([5, 3, 9, 4, 7]);
    const withoutIp = await dataSource.getRepository(Revision).findOneByOrFail({ context_id: 4 });
    expect(withoutIp.revision_ipaddr).toBeNull();
  });

  it('takes back what a failed unit deferred since its mark, and nothing before', async () => {
    await dataSource.transaction(async (manager) => {
      deferInsertsIn(manager);
      await insertAtCommit(manager, Revision, revision(1));
      const mark = deferredMark(manager);
      await insertAtCommit(manager, Revision, revision(2));
      await insertAtCommit(manager, Revision, revision(3));
      dropDeferredSince(manager, mark);
      await insertAtCommit(manager, Revision, revision(4));
      await flushDeferredInserts(manager);
    });
    expect(await stored()).toEqual([1, 4]);
  });

  it('splits a large flush into statements of at most MAX_ROWS_PER_INSERT rows', async () => {
    const count = MAX_ROWS_PER_INSERT * 2 + 7;
    await dataSource.transaction(async (manager) => {
      deferInsertsIn(manager);
      for (let id = 1; id <= count; id++) await insertAtCommit(manager, Revision, revision(id));
      await flushDeferredInserts(manager);
    });
    expect(await stored()).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  });

  it('builds one bound statement for several rows and refuses rows with other columns', () => {
    const { sql, params } = insertRowsStatement(dataSource.manager, Revision, [revision(1), revision(2, "it's")]);
    expect(sql).toMatch(/^INSERT INTO "revision" \(.+\) VALUES \((:v\d+, )+:v\d+\), \((:v\d+, )+:v\d+\)$/);
    expect(sql).not.toContain("it's");
    expect(Object.values(params)).toContain("it's");
    expect(() =>
      insertRowsStatement(dataSource.manager, Revision, [revision(1), { ...revision(2), revision_ipaddr: undefined }]),
    ).toThrow('row 2 of Revision has no revision_ipaddr');
  });
});
