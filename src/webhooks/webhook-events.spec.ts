import { eventPatternProblem, patternsMatching } from './webhook-events';

describe('webhook event patterns', () => {
  it.each(['*', 'invoice.insert', 'customer.*', 'user.delete', 'package.paymethod', 'quote.won'])(
    'accepts %s',
    (pattern) => {
      expect(eventPatternProblem(pattern)).toBeNull();
    },
  );

  it.each([
    ['invoice', 'must be'],
    ['invoice.insert.x', 'must be'],
    ['', 'must be'],
    ['refund.insert', 'unknown context "refund"'],
    ['invoice.paid', 'unknown event "paid" for invoice'],
    ['*.insert', 'unknown context "*"'],
    ['constructor.insert', 'unknown context'],
  ])('refuses %j', (pattern, problem) => {
    expect(eventPatternProblem(pattern)).toContain(problem);
  });

  it('lists the patterns an event matches', () => {
    expect(patternsMatching('invoice', 'insert')).toEqual(['invoice.insert', 'invoice.*', '*']);
  });
});
