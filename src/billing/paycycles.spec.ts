import { paycycleName, PAYCYCLES } from './paycycles';

describe('paycycles', () => {
  it('names every paycycle of DESIGN §6', () => {
    expect(PAYCYCLES).toEqual(
      expect.arrayContaining(['dly', '1wk', 'mon', 'qtr', 'six', 'yrl', '2yr', '10y', 'one', 'evy', '116']),
    );
    expect(paycycleName('mon')).toBe('Monthly');
    expect(paycycleName('yrl')).toBe('Yearly');
    expect(paycycleName('qtr')).toBe('Quarterly');
    expect(paycycleName('one')).toBe('One time');
  });

  it('answers null for nothing or an unknown code', () => {
    expect(paycycleName(null)).toBeNull();
    expect(paycycleName('xyz')).toBeNull();
    expect(paycycleName('constructor')).toBeNull();
  });
});
