import { ApiError } from 'src/core/envelope/api-error';
import { DEFAULT_LIMIT, MAX_LIMIT, parsePaging } from './paging';

function badRequest(offset: unknown, limit: unknown): ApiError {
  try {
    parsePaging(offset, limit);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(400);
    return error as ApiError;
  }
  throw new Error(`expected a 400 for offset=${String(offset)} limit=${String(limit)}`);
}

describe('parsePaging', () => {
  it('defaults to offset 0 and limit 10', () => {
    expect(parsePaging()).toEqual({ offset: 0, limit: DEFAULT_LIMIT });
    expect(parsePaging(undefined, undefined)).toEqual({ offset: 0, limit: 10 });
    expect(parsePaging('', '')).toEqual({ offset: 0, limit: 10 });
  });

  it('reads query-string integers', () => {
    expect(parsePaging('100', '100')).toEqual({ offset: 100, limit: 100 });
    expect(parsePaging('0', '1')).toEqual({ offset: 0, limit: 1 });
    expect(parsePaging('7', String(MAX_LIMIT))).toEqual({ offset: 7, limit: 500 });
    expect(parsePaging(' 3 ', '010')).toEqual({ offset: 3, limit: 10 });
  });

  it('accepts integer numbers from internal callers', () => {
    expect(parsePaging(20, 50)).toEqual({ offset: 20, limit: 50 });
  });

  it('rejects a limit outside 1..500, naming limit', () => {
    for (const limit of ['501', '0', '100000']) {
      expect(badRequest(undefined, limit).message).toMatch(/^limit must be an integer between 1 and 500/);
    }
  });

  it('rejects negative or non-integer values, naming the parameter', () => {
    for (const bad of ['-1', '1.5', 'abc', '1e3', '+5', '0x10', 1.5, -2]) {
      expect(badRequest(bad, undefined).message).toMatch(/^offset must be a non-negative integer/);
      expect(badRequest(undefined, bad).message).toMatch(/^limit must be an integer/);
    }
  });

  it('rejects an offset beyond the safe integer range', () => {
    expect(badRequest('99999999999999999999', undefined).message).toMatch(/^offset must be/);
  });

  it('rejects a repeated parameter or an object', () => {
    expect(badRequest(['0', '10'], undefined).message).toBe('The query parameter offset must be given only once.');
    expect(badRequest(undefined, ['10', '20']).message).toBe('The query parameter limit must be given only once.');
    expect(badRequest(undefined, { a: '1' }).message).toBe('The query parameter limit must be a plain string.');
  });
});
