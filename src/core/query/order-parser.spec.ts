import { ApiError } from 'src/core/envelope/api-error';
import { MAX_ORDER_TERMS, parseOrder } from './order-parser';

function badRequest(raw: string): ApiError {
  try {
    parseOrder(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(400);
    return error as ApiError;
  }
  throw new Error(`expected a 400 for ${raw}`);
}

describe('parseOrder', () => {
  it('returns no terms when absent or empty', () => {
    expect(parseOrder(undefined)).toEqual([]);
    expect(parseOrder('')).toEqual([]);
    expect(parseOrder(' ,, ')).toEqual([]);
  });

  it('parses several terms in order', () => {
    expect(parseOrder('company:ASC,customer_id:DESC')).toEqual([
      { field: 'company', dir: 'ASC' },
      { field: 'customer_id', dir: 'DESC' },
    ]);
  });

  it('reads the direction case-insensitively and defaults to ASC', () => {
    expect(parseOrder('a:desc, b:Asc ,c')).toEqual([
      { field: 'a', dir: 'DESC' },
      { field: 'b', dir: 'ASC' },
      { field: 'c', dir: 'ASC' },
    ]);
  });

  it('rejects an unknown direction, naming it', () => {
    expect(badRequest('invoice_date:DESClimit=1?offset=0').message).toMatch(
      /Invalid sort direction in order: "DESClimit=1\?offset=0"/,
    );
    expect(badRequest('a:UP').message).toMatch(/"UP"\. Use ASC or DESC/);
  });

  it('rejects malformed terms', () => {
    expect(badRequest('a:ASC:x').message).toMatch(/Malformed order term "a:ASC:x"/);
    expect(badRequest(':ASC').message).toMatch(/Malformed order term/);
  });

  it('limits the number of terms', () => {
    expect(badRequest(Array.from({ length: MAX_ORDER_TERMS + 1 }, (_, i) => `f${i}`).join(',')).message).toMatch(
      /Too many order terms/,
    );
  });
});
