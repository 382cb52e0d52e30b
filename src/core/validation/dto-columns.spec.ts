import { dtoColumns } from './dto-columns';

describe('dtoColumns', () => {
  it('keeps the fields sent, null included, but not undefined ones or those named as not columns', () => {
    const dto = { name: 'A', memo: null, units: undefined, line_items: [1], date: '2026-03-01' };
    expect(dtoColumns(dto, new Set(['line_items', 'date']))).toEqual({ name: 'A', memo: null });
  });
});
