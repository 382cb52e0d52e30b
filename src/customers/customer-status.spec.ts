import Database from 'better-sqlite3';
import {
  CUSTOMER_STATUSES,
  customerStatusEqualsSql,
  customerStatusSql,
  isOverdue,
  nightlyCustomerStatus,
  overdueSql,
  readCustomerStatus,
} from './customer-status';

const STORED = Object.keys(CUSTOMER_STATUSES);
const BOTH = [true, false];
const condition = (value: boolean) => (value ? '(1 = 1)' : '(1 = 0)');

describe('customer status rules', () => {
  it('reads an active customer overdue or current from its invoices; an inactive one as stored until new activity', () => {
    expect(readCustomerStatus('active-current', { overdue: true, recentActivity: false })).toBe('active-overdue');
    expect(readCustomerStatus('active-overdue', { overdue: false, recentActivity: false })).toBe('active-current');
    expect(readCustomerStatus('inactive-manual', { overdue: true, recentActivity: true })).toBe('inactive-manual');
    expect(readCustomerStatus('inactive-activity', { overdue: true, recentActivity: false })).toBe('inactive-activity');
    expect(readCustomerStatus('inactive-activity', { overdue: true, recentActivity: true })).toBe('active-overdue');
  });

  it('says the same in SQL for every stored status and fact', () => {
    const db = new Database(':memory:');
    try {
      for (const stored of STORED) {
        for (const overdue of BOTH) {
          for (const recentActivity of BOTH) {
            const sql = customerStatusSql('s.stored', condition(overdue), condition(recentActivity));
            const row = db.prepare(`SELECT ${sql} AS status FROM (SELECT ? AS stored) s`).get(stored) as {
              status: string;
            };
            const facts = { overdue, recentActivity };
            expect([stored, facts, row.status]).toEqual([stored, facts, readCustomerStatus(stored, facts)]);
          }
        }
      }
    } finally {
      db.close();
    }
  });

  it('filters by each status exactly as the SQL derives it, and by no other value', () => {
    const db = new Database(':memory:');
    try {
      for (const stored of STORED) {
        for (const overdue of BOTH) {
          for (const recentActivity of BOTH) {
            const facts = { overdue, recentActivity };
            const matching = STORED.filter((value) => {
              const sql = customerStatusEqualsSql(value, 's.stored', condition(overdue), condition(recentActivity));
              return db.prepare(`SELECT 1 FROM (SELECT ? AS stored) s WHERE ${sql}`).get(stored) !== undefined;
            });
            expect([stored, facts, matching]).toEqual([stored, facts, [readCustomerStatus(stored, facts)]]);
          }
        }
      }
      expect(customerStatusEqualsSql('ACTIVE-Overdue', 's', 'o', 'a')).toContain('o AND');
      expect(customerStatusEqualsSql('active', 's', 'o', 'a')).toBeNull();
    } finally {
      db.close();
    }
  });

  it('is overdue once the earliest open due date is before today, in TS and in SQL', () => {
    const db = new Database(':memory:');
    try {
      const cases: Array<[string | null, string, boolean]> = [
        [null, '2026-05-02', false],
        ['2026-05-02', '2026-05-02', false], // due today: not yet
        ['2026-05-01', '2026-05-02', true],
        ['2026-05-03', '2026-05-02', false],
      ];
      for (const [due, today, expected] of cases) {
        expect(isOverdue(due, today)).toBe(expected);
        const sql = `SELECT CASE WHEN ${overdueSql('d.due', `'${today}'`)} THEN 1 ELSE 0 END AS o FROM (SELECT ? AS due) d`;
        expect([due, (db.prepare(sql).get(due) as { o: number }).o]).toEqual([due, expected ? 1 : 0]);
      }
    } finally {
      db.close();
    }
  });

  it('lets the nightly job store inactivity and its end, never over a manual status', () => {
    expect(nightlyCustomerStatus('active-current', { overdue: false, recentActivity: false })).toBe(
      'inactive-activity',
    );
    expect(nightlyCustomerStatus('active-overdue', { overdue: true, recentActivity: false })).toBe('inactive-activity');
    expect(nightlyCustomerStatus('inactive-activity', { overdue: true, recentActivity: true })).toBe('active-overdue');
    expect(nightlyCustomerStatus('inactive-activity', { overdue: false, recentActivity: true })).toBe('active-current');
    expect(nightlyCustomerStatus('inactive-manual', { overdue: false, recentActivity: true })).toBe('inactive-manual');
  });
});
