import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from './support/test-app';

/**
 * One sequence of calls whose envelopes (apart from ids, tokens, links and times) are
 * stored in fixtures/same-answers.json: the same file is checked on SQLite and on
 * MariaDB, so passing on both proves they answer alike (DESIGN §4 Lists: text ignores
 * case on both). `UPDATE_SAME_ANSWERS=1` rewrites the file (then check it on the other database).
 */
const EXPECTED = join(__dirname, 'fixtures', 'same-answers.json');

type Call = [method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown];

const CALLS: Call[] = [
  ['POST', '/api/v3/customer', { company: 'Acme', external_key: 'ACME-1', superuser_username: 'Jane.Doe' }],
  ['POST', '/api/v3/customer', { company: 'acme', external_key: 'acme-1' }],
  ['POST', '/api/v3/customer', { company: 'other', superuser_username: 'jane.doe' }],
  ['POST', '/api/v3/customer', { company: 'beta', external_key: 'Beta' }],
  ['POST', '/api/v3/customer', { company: 'Zeta', external_key: 'zeta', bill_state: 'tx' }],
  ['POST', '/api/v3/customer', { company: 'alpha', external_key: 'ALPHA', bill_state: 'TX' }],
  ['GET', '/api/v3/customer/external_key:acme-1'],
  ['GET', '/api/v3/customer/external_key:BETA'],
  ['GET', '/api/v3/customer?where=company:EQUALS:ACME'],
  ['GET', '/api/v3/customer?where=company:NOTEQUALS:acme&order=company:ASC'],
  ['GET', '/api/v3/customer?where=company:CONTAINS:ETA&order=company:DESC'],
  ['GET', '/api/v3/customer?order=company:ASC'],
  ['GET', '/api/v3/customer?order=external_key:DESC,company:ASC'],
  ['GET', '/api/v3/customer/_count?where=bill_state:EQUALS:Tx'],
  ['GET', '/api/v3/customer?where=bill_state:EQUALS:tx,company:NOTEQUALS:ZETA'],
  ['PUT', '/api/v3/customer/external_key:zeta', { company: 'ZETA Two', external_key: 'Zeta-2' }],
  ['PUT', '/api/v3/customer/external_key:ALPHA', { external_key: 'zeta-2' }],
  ['GET', '/api/v3/customer?where=external_key:EQUALS:ZETA-2'],
  ['POST', '/api/v3/item', { name: 'Plan', external_key: 'Plan-A' }],
  ['POST', '/api/v3/item', { name: 'plan', external_key: 'PLAN-a' }],
  ['POST', '/api/v3/item', { name: 'Addon', external_key: 'addon' }],
  ['GET', '/api/v3/item?where=name:EQUALS:PLAN&order=name:ASC'],
  ['GET', '/api/v3/item?order=name:DESC'],
  ['GET', '/api/v3/user?where=username:EQUALS:JANE.DOE'],
  ['GET', '/api/v3/user/_count?where=username:CONTAINS:JANE'],
  ['DELETE', '/api/v3/user/external_key:none'],
  ['GET', '/api/v3/customer/external_key:Zeta-2'],
  ['GET', '/api/v3/customer/_count'],
];

/** Ids, tokens, links and times differ between runs and databases; everything else must not. */
function normalise(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalise(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, k)]));
  }
  if (value === null) return null;
  if ((key === 'id' || key.endsWith('_id')) && typeof value === 'number') return '<id>';
  if (/token|^url_|datetime|_date$|^date$|ipaddr/.test(key)) return `<${key}>`;
  return value;
}

describe('same answers on SQLite and MariaDB', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
  });
  afterAll(async () => {
    await t.close();
  });

  it('replays the sequence with the stored envelopes', async () => {
    const answers: unknown[] = [];
    for (const [method, path, body] of CALLS) {
      const res =
        method === 'GET'
          ? await t.get(path)
          : method === 'DELETE'
            ? await t.del(path)
            : method === 'POST'
              ? await t.post(path, body)
              : await t.put(path, body);
      answers.push({ call: `${method} ${path}`, status: res.status, body: normalise(res.body) });
    }
    if (process.env.UPDATE_SAME_ANSWERS === '1') writeFileSync(EXPECTED, `${JSON.stringify(answers, null, 1)}\n`);
    expect(answers).toEqual(JSON.parse(readFileSync(EXPECTED, 'utf8')));
  });
});
