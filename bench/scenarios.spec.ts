import { bulkProblem, usageScenarios } from './scenarios';

type UsageBody = { line_item_id: number; usage_value: number; type: string; external_key: string };

describe('bench usage scenarios', () => {
  it('sends records on the given lines, each with a new external key, 1000 to a bulk', () => {
    const [bulk, single] = usageScenarios([7, 9], 1000);
    const request = bulk.next();
    expect(request.path).toBe('/api/v3/usage?action=bulk');
    const records = JSON.parse(request.body as string) as UsageBody[];
    const one = JSON.parse(single.next().body as string) as UsageBody;
    expect(records).toHaveLength(1000);
    expect(single.next().path).toBe('/api/v3/usage');
    const all = [...records, one];
    expect(new Set(all.map((r) => r.external_key)).size).toBe(1001);
    expect(all.every((r) => [7, 9].includes(r.line_item_id) && r.usage_value > 0 && r.type === 'add')).toBe(true);
  });

  it('accepts a bulk answer only when every record has its own 201 entry with an id', () => {
    const ok = { code: 201, status: 'OK', message: '', response: { id: 1 } };
    const refused = { code: 400, status: 'Error', message: 'no', response: false };
    expect(bulkProblem([ok, ok], 2)).toBeNull();
    expect(bulkProblem([ok], 2)).toBe('1 entries for 2 records');
    expect(bulkProblem([ok, refused], 2)).toBe('1 of 2 records not recorded');
    expect(bulkProblem({ id: 1 }, 1)).toBe('the response is not an array of entries');
  });
});
