import 'reflect-metadata';
import fc from 'fast-check';
import { Column, DataSource, Entity, PrimaryColumn, PrimaryGeneratedColumn, SelectQueryBuilder } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { FieldMap } from './field-map';
import { EntityReader } from 'src/database/entity-reader';
import { ListQueryInput, ListQueryOptions, applyListQuery, applyWhere, listQueryClause } from './list-query';

@Entity('person')
class Person {
  @PrimaryColumn({ type: 'int' }) id: number;
  @Column({ type: 'varchar', length: 255 }) name: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) nickname: string | null;
  @Column({ type: 'decimal', precision: 18, scale: 2 }) amount: string;
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

/** Every generated value carries it; no field expression or SQL keyword contains it. */
const MARKER = 'zqx';
const NAMES = ["O'Brien; --", 'Acme, Inc.', '100% pure', 'a_b', 'x:y', 'back\\slash', 'wow!', 'Ünïcode 😀', 'plain'];
const RUNS = 300;

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
    NAMES.map((name, i) => ({
      id: i + 1,
      name,
      nickname: i % 3 === 0 ? null : name.toUpperCase(),
      amount: `${i * 7}.${i}5`,
      flag: i % 2 === 0,
      born: i % 4 === 0 ? null : `19${70 + i}-0${1 + (i % 9)}-1${i}`,
      created: new Date(Date.UTC(2024, i, 1 + i, i, 0, 0)),
    })),
  );
  await dataSource
    .getRepository(PersonTag)
    .save(NAMES.slice(0, 5).map((name, i) => ({ person_id: i + 1, tag: name.slice(0, 3), weight: i % 2 ? i : null })));
});

afterAll(async () => {
  await dataSource.destroy();
});

function personQuery(): SelectQueryBuilder<Person> {
  return dataSource.getRepository(Person).createQueryBuilder('p');
}

/** Escapes a value the way a well-behaved client does. */
function escapeValue(value: string): string {
  return value.replace(/[\\:,]/g, (ch) => `\\${ch}`);
}

/**
 * Applies the query and runs it (list and count). Only a 400 ApiError may come out;
 * on success neither the SQL we built nor the SQL sent to the driver contains a value.
 */
async function runQuery(query: ListQueryInput): Promise<'ok' | 400> {
  const list = personQuery();
  const count = personQuery();
  let clause: ReturnType<typeof listQueryClause>;
  try {
    applyListQuery(list, FIELDS, query, OPTIONS);
    applyWhere(count, FIELDS, query.where, OPTIONS.timezone);
    clause = listQueryClause(FIELDS, query, OPTIONS);
  } catch (error) {
    if (error instanceof ApiError && error.code === 400) {
      // The raw-SQL form refuses exactly what the query-builder form refuses.
      expect(() => listQueryClause(FIELDS, query, OPTIONS)).toThrow(ApiError);
      return 400;
    }
    throw error;
  }
  for (const qb of [list, count]) {
    expect(qb.getQuery().toLowerCase()).not.toContain(MARKER);
    expect(qb.getQueryAndParameters()[0].toLowerCase()).not.toContain(MARKER);
  }
  // The SQL text the driver receives, after named parameters became placeholders.
  const sent = jest.spyOn(dataSource.driver, 'escapeQueryWithParameters');
  const viaReader = await new EntityReader(dataSource, { entity: Person, alias: 'p' }).many(dataSource.manager, clause);
  expect(sent).toHaveBeenCalledTimes(1);
  expect((sent.mock.results[0].value as [string, unknown[]])[0].toLowerCase()).not.toContain(MARKER);
  sent.mockRestore();
  // Both forms find the same rows in the same order.
  expect(viaReader.map((p) => p.id)).toEqual((await list.getMany()).map((p) => p.id));
  await count.getCount();
  return 'ok';
}

const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'binary-ascii' }),
);

const nastyChunk = fc.constantFrom(
  "'",
  '"',
  ';',
  '--',
  '-',
  '\\',
  '\\\\',
  '%',
  '_',
  '!',
  ':',
  ',',
  ' ',
  '/*',
  '*/',
  'a',
  'Z',
  '0',
  '.',
  'é',
  '😀',
  '\n',
  '\0',
  ' OR 1=1',
  "'; DROP TABLE person; --",
  '?',
  '$1',
  '@p',
);
const markedValue = fc.string({ unit: nastyChunk, maxLength: 12 }).map((rest) => MARKER + rest);
const VALUES_BY_TYPE = {
  int: fc.integer({ min: -1000, max: 1000 }).map(String),
  number: fc
    .tuple(fc.integer({ min: -99999, max: 99999 }), fc.integer({ min: 0, max: 99 }))
    .map(([whole, cents]) => `${whole}.${cents}`),
  bool: fc.constantFrom('true', 'false', '1', '0', 'TRUE'),
  date: fc.constantFrom('1975-05-15', '2024-02-29', '1970-01-01'),
  datetime: fc.constantFrom('2024-03-05', '2024-03-05 10:00:00', '2024-03-05T10:00:00-05:00', '2024-03-05T10:00:00Z'),
  string: markedValue,
};
const typedValue = fc.oneof(...Object.values(VALUES_BY_TYPE), fc.constantFrom('2024-13-45', '', '1e3', 'NaN'));
/** Usually a value of the field's own type (so the condition runs), sometimes any value. */
const valueFor = (field: string) =>
  Object.prototype.hasOwnProperty.call(FIELDS, field)
    ? fc.oneof(
        { weight: 3, arbitrary: VALUES_BY_TYPE[FIELDS[field].type] },
        { weight: 1, arbitrary: markedValue },
        { weight: 1, arbitrary: typedValue },
      )
    : fc.oneof(markedValue, typedValue);
// Mostly well-formed, so that many runs reach the database; the rest probe the error paths.
const fieldName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...Object.keys(FIELDS)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('foo', 'constructor', '__proto__', 'toString', '', ' name', 'NAME', 'p.id', 'id;--'),
  },
);
const operator = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('EQUALS', 'NOTEQUALS', 'GT', 'LT', 'GTE', 'LTE', 'CONTAINS', 'contains') },
  { weight: 1, arbitrary: fc.constantFrom('IS', 'ISNOT', 'LIKE', '', 'EQUALS ') },
);
const mostly = (value: boolean) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: fc.constant(!value) });
const shape = fc.oneof(
  { weight: 8, arbitrary: fc.constant('value') },
  { weight: 2, arbitrary: fc.constantFrom('null', 'missing', 'junk') },
);

const condition = fieldName
  .chain((field) => fc.tuple(fc.constant(field), operator, valueFor(field), mostly(true), shape))
  .map(([field, op, value, escape, form]) => {
    if (form === 'null') return `${field}:${op}:NULL`;
    if (form === 'missing') return `${field}:${op}`;
    if (form === 'junk') return `${field}${value}`;
    return `${field}:${op}:${escape ? escapeValue(value) : value}`;
  });
const structuredWhere = fc.array(condition, { maxLength: 3 }).map((conditions) => conditions.join(','));

const orderField = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...Object.keys(FIELDS).filter((name) => FIELDS[name].exists === undefined)) },
  { weight: 2, arbitrary: fieldName },
);
const orderTerm = fc
  .tuple(
    orderField,
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('ASC', 'DESC', 'asc', 'Desc') },
      { weight: 1, arbitrary: fc.constantFrom('', 'UP', `${MARKER}DESC`, 'ASC:DESC') },
    ),
    fc.boolean(),
  )
  .map(([field, dir, withDir]) => (withDir ? `${field}:${dir}` : field));
const structuredOrder = fc.array(orderTerm, { maxLength: 4 }).map((terms) => terms.join(','));

const pagingValue = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: -5, max: 600 }).map(String),
  fc.constantFrom('', '1.5', '1e2', '0x10', ' 7 ', '99999999999999999999'),
  fc.array(fc.constantFrom('1', '10'), { minLength: 2, maxLength: 2 }),
  anyText,
);
const paramShape = <T>(text: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: fc.array(text, { minLength: 2, maxLength: 2 }) });

describe('applyListQuery on arbitrary input', () => {
  it('arbitrary where/order/offset/limit text either executes or is a 400', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(paramShape(anyText)),
        fc.option(paramShape(anyText)),
        pagingValue,
        pagingValue,
        async (where, order, offset, limit) => {
          await runQuery({ where: where ?? undefined, order: order ?? undefined, offset, limit });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('valid-looking conditions with hostile values either execute or are a 400, and values stay out of the SQL', async () => {
    const outcomes = { ok: 0, 400: 0 };
    await fc.assert(
      fc.asyncProperty(
        structuredWhere,
        fc.option(structuredOrder),
        fc.option(fc.integer({ min: 0, max: 600 }).map(String)),
        async (where, order, limit) => {
          outcomes[await runQuery({ where, order: order ?? undefined, limit: limit ?? undefined })]++;
        },
      ),
      { numRuns: RUNS },
    );
    // The generators must reach the database often, not only produce 400s.
    expect(outcomes.ok).toBeGreaterThan(RUNS / 5);
  });

  it('CONTAINS and EQUALS on a string field match exactly what the value says, escapes and wildcards included', async () => {
    const asciiLower = (text: string) => text.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
    // SQLite reads a LIKE pattern as a C string, so NUL is left out of this oracle.
    const needle = fc.oneof(
      // A slice by code points, so an emoji is never cut in half.
      fc
        .tuple(fc.constantFrom(...NAMES.map((name) => Array.from(name))), fc.nat(), fc.nat())
        .map(([chars, a, b]) =>
          chars.slice(Math.min(a, b) % (chars.length + 1), Math.max(a, b) % (chars.length + 1)).join(''),
        ),
      fc.string({ unit: nastyChunk, maxLength: 6 }).map((text) => text.replace(/\0/g, '')),
    );
    await fc.assert(
      fc.asyncProperty(needle, fc.boolean(), async (value, upper) => {
        const probe = upper ? value.toUpperCase() : value;
        const names = async (where: string) =>
          (await applyWhere(personQuery(), FIELDS, where, OPTIONS.timezone).orderBy('p.id').getMany()).map(
            (p) => p.name,
          );
        expect(await names(`name:CONTAINS:${escapeValue(probe)}`)).toEqual(
          NAMES.filter((name) => asciiLower(name).includes(asciiLower(probe))),
        );
        expect(await names(`name:EQUALS:${escapeValue(probe)}`)).toEqual(NAMES.filter((name) => name === probe));
      }),
      { numRuns: RUNS },
    );
  });
});
