import { UsageTargetResolver } from 'src/usage/usage-target-resolver';
import { UsageService } from 'src/usage/usage.service';
import { createId } from './support/catalog-fixtures';
import { fastPath } from 'src/database/fast-paths';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/** `POST /usage` (SPEC "Usage"): the three selectors, types and options, idempotent keys, bulk. */
describe('usage (/usage)', () => {
  let t: TestApp;
  let meteredItem: number;
  let planItem: number;
  let pkgOne: number;
  let meteredLine: number;
  let planLine: number;
  let pkgTwoMetered: number;

  const usageCount = async (): Promise<number> =>
    Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM usage_record'))[0].n);
  const linesOf = async (pkg: number): Promise<Json[]> =>
    (await t.get(`/api/v3/package/${pkg}`).expect(200)).body.response.line_items;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-04-10T15:00:00Z'));
    planItem = await createId(t, '/api/v3/item', {
      name: 'Plan',
      external_key: 'plan',
      pricemodel: { pricemodel: 'fla', base: 10, paycycle: 'mon' },
    });
    meteredItem = await createId(t, '/api/v3/item', {
      name: 'API calls',
      external_key: 'api-calls',
      is_usage: true,
      pricemodel: { pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: 0.01 }] },
    });
    const customer = await createId(t, '/api/v3/customer', { company: 'Metered Co', external_key: 'metered-co' });
    pkgOne = await createId(t, '/api/v3/package', {
      customer_id: customer,
      line_items: [{ item_id: planItem }, { item_id: meteredItem, external_key: 'calls-line' }],
    });
    const lines = await linesOf(pkgOne);
    meteredLine = lines.find((l) => l.item_id === meteredItem)!.line_item_id;
    planLine = lines.find((l) => l.item_id === planItem)!.line_item_id;
    const twice = await createId(t, '/api/v3/customer', { company: 'Two lines', external_key: 'two-lines' });
    pkgTwoMetered = await createId(t, '/api/v3/package', {
      customer_id: twice,
      line_items: [{ item_id: meteredItem }, { item_id: meteredItem }],
    });
  });
  afterAll(() => t.close());

  it('records usage by line id: 201, Location, and the record reads back', async () => {
    const res = await t
      .post('/api/v3/usage', {
        line_item_id: meteredLine,
        usage_value: 12.5,
        from: '2026-04-01',
        to: '2026-04-10',
        type: 'max',
        option: ['ceil'],
      })
      .expect(201);
    const id = res.body.response.id as number;
    expect(res.headers.location).toBe(`https://billing.example.test/api/v3/usage/${id}`);
    const read = (await t.get(`/api/v3/usage/${id}`).expect(200)).body.response;
    expect(read).toMatchObject({
      usage_id: id,
      line_item_id: meteredLine,
      package_id: pkgOne,
      usage_value: 12.5,
      type: 'max',
      option: ['ceil'],
    });
    expect(read.from).toMatch(/^2026-04-01T00:00:00-05:00$/);
  });

  it('finds the line by its external key, by the subscription, and by customer and item keys', async () => {
    for (const selector of [
      { line_item_external_key: 'calls-line' },
      { package_id: pkgOne },
      { customer: { external_key: 'metered-co' }, line_item: { item_external_key: 'api-calls' } },
      { 'customer.external_key': 'metered-co', 'line_item.item_external_key': 'api-calls' },
    ]) {
      const res = await t.post('/api/v3/usage', { ...selector, usage_value: 1 }).expect(201);
      const read = (await t.get(`/api/v3/usage/${res.body.response.id}`).expect(200)).body.response;
      expect(read.line_item_id).toBe(meteredLine);
      expect(read.type).toBe('add');
    }
  });

  it.each([
    [{ package_id: 0 }, 'package_id', 'positive integer'],
    [{}, 'line_item_id', 'exactly one'],
    [{ line_item_id: 1, package_id: 1 }, 'line_item_id', 'exactly one'],
    [{ 'customer.external_key': 'metered-co' }, 'line_item.item_external_key', 'together'],
  ])('refuses a bad selector %j', async (selector, field, problem) => {
    const before = await usageCount();
    const res = await t.post('/api/v3/usage', { ...selector, usage_value: 1 }).expect(400);
    expect(res.body).toMatchObject({ code: 400, status: 'Error', response: false });
    expect(res.body.message).toContain(field);
    expect(res.body.message).toContain(problem);
    expect(await usageCount()).toBe(before);
  });

  it('refuses a selector that matches no metered line, or more than one, saying which', async () => {
    const cases: Array<[Json, string]> = [
      [{ line_item_id: 999999 }, 'no subscription line with id 999999'],
      [{ line_item_id: planLine }, 'not a metered'],
      [{ package_id: pkgTwoMetered }, 'has 2 metered lines'],
      [
        { 'customer.external_key': 'nobody', 'line_item.item_external_key': 'api-calls' },
        'no active subscription line',
      ],
      [{ 'customer.external_key': 'two-lines', 'line_item.item_external_key': 'api-calls' }, '2 lines'],
    ];
    for (const [selector, message] of cases) {
      const res = await t.post('/api/v3/usage', { ...selector, usage_value: 1 }).expect(400);
      expect(res.body.message).toContain(message);
    }
  });

  it.each([
    [{ usage_value: 'lots' }, '"usage_value": must be a number'],
    [{ usage_value: -1 }, '"usage_value": must not be less than 0'],
    [{ usage_value: 1, type: 'sum' }, '"type": must be one of add, max, lat'],
    [{ usage_value: 1, option: ['floor'] }, '"option[0]"'],
    [{ usage_value: 1, from: '04/01/2026' }, '"from"'],
    [{ usage_value: 1, from: '2026-04-10', to: '2026-04-01' }, '"to" must not be before "from"'],
    [{ usage_value: 1, colour: 'red' }, '"colour" is not a field'],
    [{}, '"usage_value"'],
  ])('refuses bad fields %j with a 400 naming them', async (fields, message) => {
    const res = await t.post('/api/v3/usage', { line_item_id: meteredLine, ...fields }).expect(400);
    expect(res.body.message).toContain(message);
  });

  it('is idempotent by external key: a repeat is a 400 naming the key and stores nothing', async () => {
    await t.post('/api/v3/usage', { line_item_id: meteredLine, usage_value: 3, external_key: 'evt-1' }).expect(201);
    const before = await usageCount();
    const res = await t
      .post('/api/v3/usage', { line_item_id: meteredLine, usage_value: 3, external_key: 'evt-1' })
      .expect(400);
    expect(res.body.message).toContain('"evt-1"');
    expect(await usageCount()).toBe(before);
  });

  it('stores one row for racing repeats of a key: one 201, every other a 400 naming the key', async () => {
    const before = await usageCount();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.post('/api/v3/usage', { line_item_id: meteredLine, usage_value: i + 1, external_key: 'race-1' }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400)) expect(a.body.message).toContain('"race-1"');
    expect(await usageCount()).toBe(before + 1);
    // A repeat in a bulk is refused by the same key.
    const bulk = await t
      .post('/api/v3/usage?action=bulk', [{ line_item_id: meteredLine, usage_value: 1, external_key: 'race-1' }])
      .expect(200);
    expect(bulk.body.response[0].message).toContain('"race-1"');
  });

  it('answers concurrent single records each with the id of its own row', async () => {
    const values = Array.from({ length: 12 }, (_, i) => i + 101);
    const answers = await Promise.all(
      values.map((v) =>
        t.post('/api/v3/usage', { line_item_id: meteredLine, usage_value: v, external_key: `own-${v}` }).expect(201),
      ),
    );
    const stored = await Promise.all(
      answers.map(async (a) => (await t.get(`/api/v3/usage/${a.body.response.id}`).expect(200)).body.response),
    );
    expect(stored.map((s) => [s.usage_value, s.external_key])).toEqual(values.map((v) => [v, `own-${v}`]));
  });

  it('resolves single records of one turn in one read, and fails a bad selector alone', async () => {
    const usage = t.app.get(UsageService);
    const resolve = jest.spyOn(t.app.get(UsageTargetResolver), 'resolve');
    const before = await usageCount();
    try {
      // Three records in one turn of the event loop share a batch, as concurrent POSTs do
      // (with turn batching off, DB_FAST_PATHS, each is a batch of its own).
      const batched = fastPath('turn-batch');
      const outcomes = await Promise.allSettled([
        usage.record({ line_item_id: meteredLine, usage_value: 7, external_key: 'turn-1' }),
        usage.record({ package_id: pkgTwoMetered, usage_value: 8 }),
        usage.record({ line_item_external_key: 'calls-line', usage_value: 9, external_key: 'turn-3' }),
      ]);
      expect(resolve).toHaveBeenCalledTimes(batched ? 1 : 3);
      expect(resolve.mock.calls[0][1]).toHaveLength(batched ? 3 : 1);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(String((outcomes[1] as PromiseRejectedResult).reason.message)).toContain('2 metered lines');
      const ids = [outcomes[0], outcomes[2]].map((o) => (o as PromiseFulfilledResult<number>).value);
      const stored = await Promise.all(
        ids.map(async (id) => (await t.get(`/api/v3/usage/${id}`).expect(200)).body.response),
      );
      expect(stored.map((s) => [s.line_item_id, s.usage_value, s.external_key])).toEqual([
        [meteredLine, 7, 'turn-1'],
        [meteredLine, 9, 'turn-3'],
      ]);
      expect(await usageCount()).toBe(before + 2);
    } finally {
      resolve.mockRestore();
    }
  });

  it('bulk: answers each record in order, writes the good ones once, through both action forms', async () => {
    const before = await usageCount();
    const res = await t
      .post('/api/v3/usage?action=bulk', [
        { line_item_id: meteredLine, usage_value: 1, external_key: 'bulk-1' },
        { line_item_id: meteredLine, usage_value: 'x' },
        { package_id: pkgTwoMetered, usage_value: 1 },
        { line_item_id: meteredLine, usage_value: 2, external_key: 'bulk-1' },
        { line_item_id: meteredLine, usage_value: 3, external_key: 'evt-1' },
        { line_item_external_key: 'calls-line', usage_value: 4 },
      ])
      .expect(200);
    const entries = res.body.response as Json[];
    expect(entries.map((e) => e.code)).toEqual([201, 400, 400, 400, 400, 201]);
    expect(entries[1].message).toContain('usage_value');
    expect(entries[2].message).toContain('2 metered lines');
    expect(entries[3].message).toContain('"bulk-1"');
    expect(entries[4].message).toContain('"evt-1"');
    expect(await usageCount()).toBe(before + 2);
    const first = (await t.get(`/api/v3/usage/${entries[0].response.id}`).expect(200)).body.response;
    const last = (await t.get(`/api/v3/usage/${entries[5].response.id}`).expect(200)).body.response;
    expect([first.usage_value, first.external_key, last.usage_value]).toEqual([1, 'bulk-1', 4]);

    const byPath = await t
      .post('/api/v3/usage/_action/bulk', [{ line_item_id: meteredLine, usage_value: 5 }])
      .expect(200);
    expect(byPath.body.response[0].code).toBe(201);
  });

  it('bulk: takes 1000 records and refuses 1001 or a body that is not an array', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({
      line_item_id: meteredLine,
      usage_value: i,
      external_key: `many-${i}`,
    }));
    const res = await t.post('/api/v3/usage?action=bulk', many).expect(200);
    const ids = (res.body.response as Json[]).map((e) => e.response.id as number);
    expect(new Set(ids).size).toBe(1000);
    const sample = (await t.get(`/api/v3/usage/${ids[737]}`).expect(200)).body.response;
    expect([sample.usage_value, sample.external_key]).toEqual([737, 'many-737']);
    await t.post('/api/v3/usage?action=bulk', [...many, many[0]]).expect(400);
    await t.post('/api/v3/usage?action=bulk', { line_item_id: meteredLine }).expect(400);
    await t.post('/api/v3/usage?action=sum', []).expect(400);
  });

  it('counts records by outcome in /metrics', async () => {
    const counted = async (outcome: string): Promise<number> => {
      const text = (await t.get('/metrics').expect(200)).text;
      const line = new RegExp(`^billing_usage_records_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text);
      return Number(line?.[1] ?? 0);
    };
    const [recorded, refused] = [await counted('recorded'), await counted('refused')];
    await t
      .post('/api/v3/usage?action=bulk', [
        { line_item_id: meteredLine, usage_value: 1 },
        { line_item_id: meteredLine, usage_value: 2 },
        { line_item_id: meteredLine, usage_value: 'x' },
      ])
      .expect(200);
    await t.post('/api/v3/usage', { line_item_id: planLine, usage_value: 1 }).expect(400);
    expect(await counted('recorded')).toBe(recorded + 2);
    expect(await counted('refused')).toBe(refused + 2);
  });

  it('answers 404 for an unknown or token path', async () => {
    await t.get('/api/v3/usage/999999').expect(404);
    await t.get('/api/v3/usage/token:abc').expect(404);
  });
});
