import 'reflect-metadata';
import Decimal from 'decimal.js';
import { Column, DataSource, Entity, PrimaryColumn, PrimaryGeneratedColumn, SelectQueryBuilder } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { Money } from 'src/core/money/decimal';
import { FieldMap } from './field-map';
import { ListQueryInput, ListQueryOptions, applyListQuery, applyWhere } from './list-query';

@Entity('person')
class Person {
  @PrimaryColumn({ type: 'int' }) id: number;
  @Column({ type: 'varchar', length: 255 }) name: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) nickname: string | null;
  @Column(AMOUNT) amount: Decimal;
  @Column({ type: 'boolean' }) flag: boolean;
  @Column({ type: 'date', nullable: true }) born: string | null;
  @Column({ type: 'datetime' }) created: Date;
}

@Entity('person_tag')
class PersonTag {
  @PrimaryGeneratedColumn({ type: 'int' }) id: number;
  @Column({ type: 'int' }) person_id: number;
  @Column({ type: 'varchar', length: 32 }) tag: string;
  @Column({ type: 'int', nullable: true }) weight: number | null;
}

const TAGS = 'SELECT 1 FROM person_tag t WHERE t.person_id = p.id AND {cond}';
const FIELDS: FieldMap = {
  id: { expr: 'p.id', type: 'int' },
  name: { expr: 'p.name', type: 'string' },
  nickname: { expr: 'p.nickname', type: 'string' },
  amount: { expr: 'p.amount', type: 'number' },
  flag: { expr: 'p.flag', type: 'bool' },
  born: { expr: 'p.born', type: 'date' },
  created: { expr: 'p.created', type: 'datetime' },
  'tags.tag': { expr: 't.tag', type: 'string', exists: TAGS },
  'tags.weight': { expr: 't.weight', type: 'int', exists: TAGS },
};

const OPTIONS: ListQueryOptions = { timezone: 'America/Chicago', defaultOrder: { expr: 'p.id', dir: 'ASC' } };

type Row = [
  id: number,
  name: string,
  nickname: string | null,
  amount: string,
  flag: boolean,
  born: string | null,
  created: string,
];
const PEOPLE: Row[] = [
  [1, 'Acme, Inc.', null, '10.50', true, '1990-05-01', '2024-01-15T12:00:00Z'],
  [2, 'x:y', 'xy', '-3.00', false, null, '2024-01-15T18:30:00Z'],
  [3, '100% pure', 'pure', '10.49', true, '1985-12-31', '2024-03-01T00:00:00Z'],
  [4, 'a_b', null, '0.00', false, '2000-01-01', '2023-12-31T23:59:59Z'],
  [5, 'wow!', 'wow', '999999.99', true, null, '2024-06-30T05:00:00Z'],
  [6, 'back\\slash', null, '10.50', false, '1990-05-01', '2024-01-15T12:00:00Z'],
  [7, "O'Brien; --", "o'b", '20', true, '1970-01-01', '2025-01-01T00:00:00Z'],
];
const TAG_ROWS: [personId: number, tag: string, weight: number | null][] = [
  [1, 'vip', 5],
  [1, 'eu', 1],
  [2, 'vip', null],
  [3, 'us', 2],
  [5, 'eu', 3],
];
const ALL = PEOPLE.map((row) => row[0]);

let dataSource: DataSource;

beforeAll(async () => {
  dataSource = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: [Person, PersonTag],
    synchronize: true,
    logging: false,
  });
  await dataSource.initialize();
  await dataSource.getRepository(Person).save(
    PEOPLE.map(([id, name, nickname, amount, flag, born, created]) => ({
      id,
      name,
      nickname,
      amount: new Money(amount),
      flag,
      born,
      created: new Date(created),
    })),
  );
  await dataSource
    .getRepository(PersonTag)
    .save(TAG_ROWS.map(([person_id, tag, weight]) => ({ person_id, tag, weight })));
});

afterAll(async () => {
  await dataSource.destroy();
});

function personQuery(): SelectQueryBuilder<Person> {
  return dataSource.getRepository(Person).createQueryBuilder('p');
}

async function ids(query: ListQueryInput, options: Partial<ListQueryOptions> = {}): Promise<number[]> {
  const qb = personQuery();
  applyListQuery(qb, FIELDS, { limit: '500', ...query }, { ...OPTIONS, ...options });
  return (await qb.getMany()).map((person) => person.id);
}

async function where(condition: string): Promise<number[]> {
  return ids({ where: condition });
}

async function badRequest(query: ListQueryInput): Promise<string> {
  try {
    await ids(query);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error(`expected a 400 for ${JSON.stringify(query)}`);
}

const except = (...excluded: number[]) => ALL.filter((id) => !excluded.includes(id));

describe('applyListQuery where', () => {
  it('returns every row, in default order, without a where', async () => {
    expect(await ids({})).toEqual(ALL);
  });

  it('EQUALS on every field type', async () => {
    expect(await where('id:EQUALS:3')).toEqual([3]);
    expect(await where("name:EQUALS:O'Brien; --")).toEqual([7]);
    expect(await where('amount:EQUALS:10.5')).toEqual([1, 6]);
    expect(await where('amount:EQUALS:20.000')).toEqual([7]);
    expect(await where('flag:EQUALS:true')).toEqual([1, 3, 5, 7]);
    expect(await where('flag:EQUALS:0')).toEqual([2, 4, 6]);
    expect(await where('born:EQUALS:1990-05-01')).toEqual([1, 6]);
    // 06:00 in Chicago (CST) is 12:00 UTC, as stored.
    expect(await where('created:EQUALS:2024-01-15 06:00:00')).toEqual([1, 6]);
    expect(await where('created:EQUALS:2024-01-15T13:00:00+01:00')).toEqual([1, 6]);
  });

  it('unescapes \\: and \\, in values', async () => {
    expect(await where('name:EQUALS:Acme\\, Inc.')).toEqual([1]);
    expect(await where('name:EQUALS:x\\:y')).toEqual([2]);
    expect(await where('name:EQUALS:back\\\\slash')).toEqual([6]);
  });

  it('NOTEQUALS (SQL semantics: NULL never matches)', async () => {
    expect(await where('id:NOTEQUALS:1')).toEqual(except(1));
    expect(await where('nickname:NOTEQUALS:xy')).toEqual([3, 5, 7]);
    expect(await where('flag:NOTEQUALS:true')).toEqual([2, 4, 6]);
  });

  it('GT, LT, GTE, LTE on integers and decimals', async () => {
    expect(await where('id:GT:5')).toEqual([6, 7]);
    expect(await where('id:LT:3')).toEqual([1, 2]);
    expect(await where('id:GTE:5')).toEqual([5, 6, 7]);
    expect(await where('id:LTE:-1')).toEqual([]);
    expect(await where('amount:GT:10.49')).toEqual([1, 5, 6, 7]);
    expect(await where('amount:GTE:10.49')).toEqual([1, 3, 5, 6, 7]);
    expect(await where('amount:LT:0')).toEqual([2]);
    expect(await where('amount:LTE:0')).toEqual([2, 4]);
    expect(await where('amount:GT:999999.98')).toEqual([5]);
  });

  it('GT, LT, GTE, LTE on dates, datetimes and strings', async () => {
    expect(await where('born:GT:1990-05-01')).toEqual([4]);
    expect(await where('born:LTE:1990-05-01')).toEqual([1, 3, 6, 7]);
    // Midnight 2024-01-15 in Chicago is 06:00 UTC.
    expect(await where('created:LT:2024-01-15')).toEqual([4]);
    expect(await where('created:GTE:2024-01-15')).toEqual(except(4));
    // An equal instant is not GT and is GTE/LTE.
    expect(await where('created:GT:2024-01-15 06:00:00')).toEqual([2, 3, 5, 7]);
    expect(await where('created:GTE:2024-01-15T12:00:00Z')).toEqual(except(4));
    expect(await where('created:LTE:2024-01-15T12:00:00Z')).toEqual([1, 4, 6]);
    expect(await where('name:LT:B')).toEqual([1, 3]);
    expect(await where('name:GTE:x')).toEqual([2]);
  });

  it('CONTAINS, with %, _, ! and backslash taken literally', async () => {
    expect(await where('name:CONTAINS:acme')).toEqual([1]);
    expect(await where('name:CONTAINS:%')).toEqual([3]);
    expect(await where('name:CONTAINS:_')).toEqual([4]);
    expect(await where('name:CONTAINS:!')).toEqual([5]);
    expect(await where('name:CONTAINS:\\\\')).toEqual([6]);
    expect(await where("name:CONTAINS:'")).toEqual([7]);
    expect(await where('name:CONTAINS:\\:')).toEqual([2]);
    expect(await where('name:CONTAINS:\\,')).toEqual([1]);
    expect(await where('name:CONTAINS:')).toEqual(ALL);
  });

  it('CONTAINS on non-string fields matches their text', async () => {
    expect(await where('id:CONTAINS:7')).toEqual([7]);
    expect(await where('born:CONTAINS:-05-')).toEqual([1, 6]);
  });

  it('IS:NULL and ISNOT:NULL', async () => {
    expect(await where('nickname:IS:NULL')).toEqual([1, 4, 6]);
    expect(await where('nickname:ISNOT:NULL')).toEqual([2, 3, 5, 7]);
    expect(await where('born:IS:NULL')).toEqual([2, 5]);
  });

  it('applies several conditions together', async () => {
    expect(await where('flag:EQUALS:1,amount:GTE:10.5')).toEqual([1, 5, 7]);
    expect(await where('flag:EQUALS:1,amount:GTE:10.5,nickname:ISNOT:NULL,name:CONTAINS:o')).toEqual([5, 7]);
    expect(await where('name:EQUALS:Acme\\, Inc.,born:EQUALS:1990-05-01')).toEqual([1]);
  });

  it('nested fields become EXISTS subqueries', async () => {
    expect(await where('tags.tag:EQUALS:vip')).toEqual([1, 2]);
    expect(await where('tags.tag:NOTEQUALS:vip')).toEqual([1, 3, 5]);
    expect(await where('tags.tag:CONTAINS:V')).toEqual([1, 2]);
    expect(await where('tags.weight:GT:2')).toEqual([1, 5]);
    expect(await where('tags.weight:LTE:2')).toEqual([1, 3]);
    expect(await where('tags.tag:IS:NULL')).toEqual([4, 6, 7]);
    expect(await where('tags.weight:IS:NULL')).toEqual([2, 4, 6, 7]);
    expect(await where('tags.weight:ISNOT:NULL')).toEqual([1, 3, 5]);
    expect(await where('tags.tag:EQUALS:eu,flag:EQUALS:true')).toEqual([1, 5]);
    // Each nested condition is its own EXISTS: person 1 has an "eu" tag and another tag of weight 5.
    expect(await where('tags.tag:EQUALS:eu,tags.weight:GTE:3')).toEqual([1, 5]);
  });

  it('binds values as parameters and never writes them into the SQL', () => {
    const qb = personQuery();
    applyListQuery(qb, FIELDS, { where: "name:EQUALS:O'Brien; --,tags.tag:EQUALS:vip,amount:GT:1.5" }, OPTIONS);
    const sql = qb.getQuery();
    expect(sql).not.toContain('Brien');
    expect(sql).not.toContain('vip');
    expect(sql).toContain(
      'AND (EXISTS (SELECT 1 FROM person_tag t WHERE t.person_id = "p"."id" AND (t.tag = :lq_w1)))',
    );
    expect(sql).toContain('CAST(:lq_w2 AS DECIMAL(65,30))');
    expect(qb.getParameters()).toEqual({ lq_w0: "O'Brien; --", lq_w1: 'vip', lq_w2: '1.5' });
  });

  it('does not overwrite parameters the caller already set', async () => {
    const qb = personQuery().where('p.id > :lq_w0', { lq_w0: 1 });
    applyWhere(qb, FIELDS, 'id:LT:4', OPTIONS.timezone);
    expect(qb.getParameters()).toEqual({ lq_w0: 1, lq_w1: 4 });
    expect((await qb.getMany()).map((p) => p.id)).toEqual([2, 3]);
  });
});

describe('applyListQuery order and paging', () => {
  it('orders by one field, either direction', async () => {
    const byName = [...PEOPLE].sort((a, b) => (a[1] < b[1] ? -1 : 1)).map((row) => row[0]);
    expect(await ids({ order: 'name:ASC' })).toEqual(byName);
    expect(await ids({ order: 'name:desc' })).toEqual([...byName].reverse());
    expect(await ids({ order: 'name' })).toEqual(byName);
  });

  it('orders by several fields, then by the default order as tiebreaker', async () => {
    // born DESC puts NULLs last (SQLite and MySQL sort NULL lowest); 1 and 6 tie on both keys.
    expect(await ids({ order: 'born:DESC,amount:ASC' })).toEqual([4, 1, 6, 3, 7, 2, 5]);
    expect(await ids({ order: 'created:ASC' })).toEqual([4, 1, 6, 2, 3, 5, 7]);
  });

  it('lets the client reverse the default order field', async () => {
    expect(await ids({ order: 'id:DESC' })).toEqual([...ALL].reverse());
    expect(await ids({ order: 'id:DESC,id:ASC' })).toEqual([...ALL].reverse());
  });

  it('uses a DESC default order', async () => {
    expect(await ids({}, { defaultOrder: { expr: 'p.id', dir: 'DESC' } })).toEqual([...ALL].reverse());
  });

  it('pages with offset and limit, defaulting to 10 rows', async () => {
    expect(await ids({ limit: '2' })).toEqual([1, 2]);
    expect(await ids({ offset: '2', limit: '2' })).toEqual([3, 4]);
    expect(await ids({ offset: '6', limit: '2' })).toEqual([7]);
    expect(await ids({ offset: '7', limit: '2' })).toEqual([]);
    expect(await ids({ offset: '1', limit: '3', order: 'amount:DESC', where: 'flag:EQUALS:true' })).toEqual([7, 1, 3]);

    const qb = personQuery();
    expect(applyListQuery(qb, FIELDS, {}, OPTIONS)).toEqual({ offset: 0, limit: 10 });
    expect(qb.getQuery()).toMatch(/LIMIT 10 OFFSET 0$/);
  });

  it('leaves paging to the caller with paginate: false, still validating it', async () => {
    const qb = personQuery();
    expect(applyListQuery(qb, FIELDS, { offset: '5', limit: '1' }, { ...OPTIONS, paginate: false })).toEqual({
      offset: 5,
      limit: 1,
    });
    expect((await qb.getMany()).map((p) => p.id)).toEqual(ALL);
    expect(() => applyListQuery(personQuery(), FIELDS, { limit: '501' }, { ...OPTIONS, paginate: false })).toThrow(
      ApiError,
    );
  });
});

describe('paging glued on by the reference PHP client (recorded traffic)', () => {
  it('reads `limit=<n>?offset=<n>` at the end of where as the paging', async () => {
    // vip tags: persons 1 and 2; offset 1, limit 1 leaves person 2.
    expect(await ids({ where: 'tags.tag:EQUALS:viplimit=1?offset=1', limit: undefined })).toEqual([2]);
    expect(await ids({ where: 'tags.weight:EQUALS:5limit=100?offset=0', limit: undefined })).toEqual([1]);
  });

  it('reads it at the end of order too', async () => {
    expect(await ids({ order: 'id:DESClimit=2?offset=0', limit: undefined })).toEqual([7, 6]);
  });

  it('lets paging named properly win over the glued one', async () => {
    // limit 500 given as its own parameter; the glued offset 1 still applies: persons 2..7.
    expect(await ids({ where: 'id:GT:0limit=1?offset=1' })).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('leaves a value without the `?` of the glued tail alone', async () => {
    expect(await badRequest({ order: 'id:DESClimit=2' })).toMatch(/Invalid sort direction in order: "DESClimit=2"/);
  });

  it('unglues a count query', async () => {
    const qb = applyWhere(personQuery(), FIELDS, 'tags.tag:EQUALS:eulimit=100?offset=0', OPTIONS.timezone);
    expect(await qb.getCount()).toBe(2); // eu tags: persons 1 and 5
  });
});

describe('applyWhere', () => {
  it('filters a count query', async () => {
    expect(
      await applyWhere(personQuery(), FIELDS, 'flag:EQUALS:1,tags.tag:ISNOT:NULL', OPTIONS.timezone).getCount(),
    ).toBe(3);
    expect(await applyWhere(personQuery(), FIELDS, undefined, OPTIONS.timezone).getCount()).toBe(7);
  });
});

describe('applyListQuery errors', () => {
  it('rejects an unknown field, listing the allowed ones', async () => {
    expect(await badRequest({ where: 'foo:EQUALS:1' })).toBe(
      'Unknown field in where: "foo". Allowed fields: id, name, nickname, amount, flag, born, created, tags.tag, tags.weight.',
    );
    expect(await badRequest({ order: 'foo:ASC' })).toMatch(
      /^Unknown field in order: "foo"\. Allowed fields: id, name, nickname, amount, flag, born, created\.$/,
    );
    expect(await badRequest({ where: 'constructor:EQUALS:1' })).toMatch(/Unknown field in where: "constructor"/);
    expect(await badRequest({ order: '__proto__' })).toMatch(/Unknown field in order: "__proto__"/);
  });

  it('rejects ordering by a nested field', async () => {
    expect(await badRequest({ order: 'tags.tag:ASC' })).toMatch(
      /^Cannot sort by the nested field in order: "tags.tag"/,
    );
  });

  it('rejects unknown operators and malformed conditions', async () => {
    expect(await badRequest({ where: 'name:LIKE:x' })).toMatch(/Unknown operator in where: "LIKE"/);
    expect(await badRequest({ where: 'name:EQUALS' })).toMatch(/Malformed where condition/);
  });

  it('rejects a value of the wrong type, naming the field', async () => {
    expect(await badRequest({ where: 'tags.weight:EQUALS:44limit=100' })).toMatch(
      /^Invalid value for where field "tags.weight": expected an integer/,
    );
    expect(await badRequest({ where: 'amount:GT:1e3' })).toMatch(/"amount": expected a decimal number/);
    expect(await badRequest({ where: 'flag:EQUALS:yes' })).toMatch(/"flag"/);
    expect(await badRequest({ where: 'born:EQUALS:1990-02-30' })).toMatch(/"born"/);
    expect(await badRequest({ where: 'created:GT:2024-01-15T10:00' })).toMatch(/"created"/);
  });

  it('rejects repeated or structured where and order parameters', async () => {
    expect(await badRequest({ where: ['id:EQUALS:1', 'id:EQUALS:2'] })).toBe(
      'The query parameter where must be given only once.',
    );
    expect(await badRequest({ order: ['id', 'name'] })).toBe('The query parameter order must be given only once.');
    expect(await badRequest({ where: { id: '1' } })).toBe('The query parameter where must be a plain string.');
  });

  it('rejects bad paging', async () => {
    expect(await badRequest({ limit: '501' })).toMatch(/^limit must be an integer between 1 and 500/);
    expect(await badRequest({ offset: '-1' })).toMatch(/^offset must be a non-negative integer/);
  });

  it('leaves the query builder untouched on a 400', () => {
    const qb = personQuery();
    const before = qb.getQuery();
    expect(() => applyListQuery(qb, FIELDS, { where: 'id:EQUALS:1', order: 'name', limit: '0' }, OPTIONS)).toThrow(
      ApiError,
    );
    expect(qb.getQuery()).toBe(before);
    expect(qb.getParameters()).toEqual({});
  });

  it('treats a bad account time zone as a server error, not a 400', () => {
    expect(() => applyWhere(personQuery(), FIELDS, 'id:EQUALS:1', 'Not/AZone')).toThrow(/Invalid account time zone/);
    expect(() => applyWhere(personQuery(), FIELDS, 'id:EQUALS:1', 'Not/AZone')).not.toThrow(ApiError);
  });
});
