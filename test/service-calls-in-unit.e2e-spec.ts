import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { CustomersService } from 'src/customers/customers.service';
import { CreateCustomerDto } from 'src/customers/dto/create-customer.dto';
import { UnitOfWork } from 'src/database/unit-of-work';
import { UsageService } from 'src/usage/usage.service';
import { createId } from './support/catalog-fixtures';
import { newCustomer } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Issue 40 point 3: a service method that works outside a unit of work works inside one.
 * The batched calls (core/batching: customers' read by id and plain create, single usage
 * records) run there alone, in the caller's transaction: they see what the unit wrote
 * before them, and what they write is undone with the unit.
 */
describe('batched service calls inside a unit of work', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  let customers: CustomersService;
  let usage: UsageService;
  let meteredLine: number;

  const customerDto = (fields: Partial<CreateCustomerDto>): CreateCustomerDto =>
    Object.assign(new CreateCustomerDto(), fields);
  const countOf = async (sql: string, params: unknown[]): Promise<number> =>
    Number((await t.dataSource.query(sql, params))[0].n);

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-04-10T15:00:00Z'));
    uow = t.app.get(UnitOfWork);
    customers = t.app.get(CustomersService);
    usage = t.app.get(UsageService);
    const item = await createId(t, '/api/v3/item', {
      name: 'API calls',
      external_key: 'api-calls',
      is_usage: true,
      pricemodel: { pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: 0.01 }] },
    });
    const customer = await newCustomer(t, { company: 'Metered Co' });
    const pkg = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: item }] });
    const res = await t.get(`/api/v3/package/${pkg}`).expect(200);
    meteredLine = res.body.response.line_items[0].line_item_id;
  });
  afterAll(() => t.close());

  it('reads a committed customer by id and by external key, as outside a unit', async () => {
    const id = await newCustomer(t, { company: 'Read Inside', external_key: 'read-inside' });
    const outside = await customers.findOne(String(id));
    const [byId, byKey] = await uow.run(async () => [
      await customers.findOne(String(id)),
      await customers.findOne('external_key:read-inside'),
    ]);
    expect(byId).toEqual(outside);
    expect(byKey).toEqual(outside);
    expect(byId.company).toBe('Read Inside');
  });

  it('answers a missing id inside a unit with the 404 it gives outside', async () => {
    await expect(uow.run(() => customers.findOne('999999'))).rejects.toMatchObject({ code: 404 });
  });

  it('several reads of one turn inside a unit each get their own row', async () => {
    const a = await newCustomer(t, { company: 'Turn A' });
    const b = await newCustomer(t, { company: 'Turn B' });
    const read = await uow.run(() => Promise.all([customers.findOne(String(a)), customers.findOne(String(b))]));
    expect(read.map((c) => c.company)).toEqual(['Turn A', 'Turn B']);
  });

  it('reads a customer the same unit created, through the batched create and read', async () => {
    const read = await uow.run(async () => {
      const id = await customers.create(
        SYSTEM_CONTEXT,
        customerDto({ company: 'Made Inside', external_key: 'made-in' }),
      );
      return [id, await customers.findOne(String(id)), await customers.findOne('external_key:made-in')] as const;
    });
    const [id, byId, byKey] = read;
    expect(byId).toMatchObject({ customer_id: id, company: 'Made Inside' });
    expect(byKey).toMatchObject({ customer_id: id });
    // Committed with the unit: readable outside it afterwards.
    expect(await customers.findOne(String(id))).toMatchObject({ company: 'Made Inside' });
  });

  it('undoes a batched create and a single usage record with the unit that made them', async () => {
    const before = await countOf('SELECT COUNT(*) AS n FROM usage_record WHERE line_item_id = ?', [meteredLine]);
    let created = 0;
    await expect(
      uow.run(async () => {
        created = await customers.create(SYSTEM_CONTEXT, customerDto({ company: 'Undone', external_key: 'undone' }));
        // The record is in the unit: counted through the unit's own transaction.
        const usageId = await usage.record({ line_item_id: meteredLine, usage_value: 3 });
        expect(usageId).toBeGreaterThan(0);
        throw new Error('the caller changes its mind');
      }),
    ).rejects.toThrow('the caller changes its mind');
    expect(created).toBeGreaterThan(0);
    await expect(customers.findOne(String(created))).rejects.toMatchObject({ code: 404 });
    expect(await countOf('SELECT COUNT(*) AS n FROM customer WHERE external_key = ?', ['undone'])).toBe(0);
    expect(await countOf('SELECT COUNT(*) AS n FROM usage_record WHERE line_item_id = ?', [meteredLine])).toBe(before);
  });

  it('keeps a single usage record written inside a unit that commits, and its key taken is a 400', async () => {
    const id = await uow.run(() => usage.record({ line_item_id: meteredLine, usage_value: 2, external_key: 'u-in' }));
    expect(await usage.findOne(String(id))).toMatchObject({ usage_id: id, external_key: 'u-in' });
    await expect(
      uow.run(() => usage.record({ line_item_id: meteredLine, usage_value: 2, external_key: 'u-in' })),
    ).rejects.toMatchObject({ code: 400 });
  });
});
