import { ApiError } from 'src/core/envelope/api-error';
import { MAX_WHERE_CONDITIONS, parseWhere } from './where-parser';

function badRequest(raw: string): ApiError {
  try {
    parseWhere(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(400);
    return error as ApiError;
  }
  throw new Error(`expected a 400 for ${raw}`);
}

describe('parseWhere', () => {
  it('returns no conditions when absent or empty', () => {
    expect(parseWhere(undefined)).toEqual([]);
    expect(parseWhere('')).toEqual([]);
    expect(parseWhere(' , ')).toEqual([]);
  });

  it('parses one condition', () => {
    expect(parseWhere('external_key:EQUALS:additional_storage')).toEqual([
      { field: 'external_key', op: 'EQUALS', value: 'additional_storage' },
    ]);
  });

  it('parses every value operator, case-insensitively', () => {
    for (const op of ['EQUALS', 'NOTEQUALS', 'GT', 'LT', 'GTE', 'LTE', 'CONTAINS']) {
      expect(parseWhere(`a:${op}:1`)).toEqual([{ field: 'a', op, value: '1' }]);
      expect(parseWhere(`a:${op.toLowerCase()}:1`)).toEqual([{ field: 'a', op, value: '1' }]);
    }
  });

  it('parses IS:NULL and ISNOT:NULL without a value', () => {
    expect(parseWhere('custom_1:IS:NULL,custom_2:ISNOT:NULL')).toEqual([
      { field: 'custom_1', op: 'IS:NULL' },
      { field: 'custom_2', op: 'ISNOT:NULL' },
    ]);
    expect(parseWhere('custom_1:is:null')).toEqual([{ field: 'custom_1', op: 'IS:NULL' }]);
  });

  it('splits conditions on unescaped commas only', () => {
    expect(parseWhere('company:EQUALS:Acme\\, Inc.,bill_state:EQUALS:VT')).toEqual([
      { field: 'company', op: 'EQUALS', value: 'Acme, Inc.' },
      { field: 'bill_state', op: 'EQUALS', value: 'VT' },
    ]);
  });

  it('unescapes colons, backslashes and any other escaped character', () => {
    expect(parseWhere('a:EQUALS:x\\:y')).toEqual([{ field: 'a', op: 'EQUALS', value: 'x:y' }]);
    expect(parseWhere('a:EQUALS:back\\\\slash')).toEqual([{ field: 'a', op: 'EQUALS', value: 'back\\slash' }]);
    expect(parseWhere('a:EQUALS:\\q\\%')).toEqual([{ field: 'a', op: 'EQUALS', value: 'q%' }]);
    // An escaped backslash does not escape the comma after it.
    expect(parseWhere('a:EQUALS:x\\\\,b:EQUALS:y')).toEqual([
      { field: 'a', op: 'EQUALS', value: 'x\\' },
      { field: 'b', op: 'EQUALS', value: 'y' },
    ]);
  });

  it('keeps a trailing lone backslash literally', () => {
    expect(parseWhere('a:EQUALS:x\\')).toEqual([{ field: 'a', op: 'EQUALS', value: 'x\\' }]);
  });

  it('keeps unescaped colons after the operator inside the value', () => {
    expect(parseWhere('write_datetime:GT:2026-01-01 10:00:00')).toEqual([
      { field: 'write_datetime', op: 'GT', value: '2026-01-01 10:00:00' },
    ]);
  });

  it('allows an empty value and keeps spaces inside values', () => {
    expect(parseWhere('a:EQUALS:')).toEqual([{ field: 'a', op: 'EQUALS', value: '' }]);
    expect(parseWhere(' a : EQUALS : x ')).toEqual([{ field: 'a', op: 'EQUALS', value: ' x ' }]);
  });

  it('keeps non-ASCII text intact, also when escaped', () => {
    expect(parseWhere('name:CONTAINS:\\😀é')).toEqual([{ field: 'name', op: 'CONTAINS', value: '😀é' }]);
  });

  it('rejects a condition without operator or value', () => {
    expect(badRequest('company').message).toMatch(/Malformed where condition "company"/);
    expect(badRequest('company:EQUALS').message).toMatch(/Malformed where condition "company:EQUALS"/);
    expect(badRequest(':EQUALS:x').message).toMatch(/Malformed/);
    // An unescaped comma in a value leaves a fragment that is not a condition.
    expect(badRequest('company:EQUALS:Acme, Inc.').message).toMatch(/Malformed where condition " Inc\."/);
  });

  it('rejects an unknown operator, naming it', () => {
    expect(badRequest('a:LIKE:x').message).toMatch(/Unknown operator in where: "LIKE"\. Allowed operators: EQUALS/);
  });

  it('rejects IS or ISNOT not followed by NULL', () => {
    expect(badRequest('a:IS').message).toMatch(/IS must be followed by :NULL/);
    expect(badRequest('a:ISNOT:nothing').message).toMatch(/ISNOT must be followed by :NULL/);
  });

  it('limits the number of conditions', () => {
    const many = Array.from({ length: MAX_WHERE_CONDITIONS + 1 }, () => 'a:EQUALS:1').join(',');
    expect(badRequest(many).message).toMatch(/Too many where conditions/);
    expect(parseWhere(Array.from({ length: MAX_WHERE_CONDITIONS }, () => 'a:EQUALS:1').join(','))).toHaveLength(
      MAX_WHERE_CONDITIONS,
    );
  });

  it('cuts long client text short in messages', () => {
    const message = badRequest(`${'x'.repeat(500)}:NOPE:1`).message;
    expect(message.length).toBeLessThan(250);
  });
});
