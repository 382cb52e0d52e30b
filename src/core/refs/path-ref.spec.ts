import { parsePathRef } from './path-ref';

describe('parsePathRef', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2147483647],
  ])('reads %s as an id', (raw, id) => {
    expect(parsePathRef(raw)).toEqual({ kind: 'id', id });
  });

  it.each([
    ['0'],
    ['-5'],
    ['2147483648'],
    ['99999999999'],
    ['12abc'],
    ['abc12'],
    [' 12'],
    ['+12'],
    ['1.5'],
    ['1e3'],
    [''],
  ])('cannot name an object with %j', (raw) => {
    expect(parsePathRef(raw)).toBeNull();
  });

  it('reads an external key', () => {
    expect(parsePathRef('external_key:abc')).toEqual({ kind: 'external_key', value: 'abc' });
  });

  it('refuses an empty external key', () => {
    expect(parsePathRef('external_key:')).toBeNull();
  });

  it('keeps colons inside the key', () => {
    expect(parsePathRef('external_key:a:b')).toEqual({ kind: 'external_key', value: 'a:b' });
  });

  it('takes the key as the router decoded it, without decoding it again', () => {
    expect(parsePathRef('external_key:a b')).toEqual({ kind: 'external_key', value: 'a b' });
    expect(parsePathRef('external_key:café')).toEqual({ kind: 'external_key', value: 'café' });
    expect(parsePathRef('external_key:100%')).toEqual({ kind: 'external_key', value: '100%' });
    expect(parsePathRef('external_key:a%20b')).toEqual({ kind: 'external_key', value: 'a%20b' });
  });

  it('keeps a numeric external key as a key, not an id', () => {
    expect(parsePathRef('external_key:123')).toEqual({ kind: 'external_key', value: '123' });
  });

  it('reads a token', () => {
    expect(parsePathRef('token:xyz')).toEqual({ kind: 'token', value: 'xyz' });
    expect(parsePathRef('token:')).toBeNull();
  });

  it('refuses unknown prefixes', () => {
    expect(parsePathRef('externalkey:abc')).toBeNull();
    expect(parsePathRef('TOKEN:abc')).toBeNull();
    expect(parsePathRef('id:5')).toBeNull();
  });
});
