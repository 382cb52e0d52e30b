import Database from 'better-sqlite3';
import { CUSTOMER_STATUSES, customerStatusSql, nightlyCustomerStatus, readCustomerStatus } from './customer-status';

const STORED = Object.keys(CUSTOMER_STATUSES);

describe('customer status rules', () => {
  it('reads an active customer overdue or current from its invoices; an inactive one as stored', () => {
    expect(readCustomerStatus('active-current', true)).toBe('active-overdue');
    expect(readCustomerStatus('active-overdue', false)).toBe('active-current');
    expect(readCustomerStatus('inactive-manual', true)).toBe('inactive-manual');
    expect(readCustomerStatus('inactive-activity', true)).toBe('inactive-activity');
  });

  it('says the same in SQL for every stored status', () => {
    const db = new Database(':memory:');
    try {
      for (const stored of STORED) {
        for (const overdue of [true, false]) {
          const sql = customerStatusSql('s.stored', overdue ? '(1 = 1)' : '(1 = 0)');
          const row = db.prepare(`SELECT ${sql} AS status FROM (SELECT ? AS stored) s`).get(stored) as {
            status: string;
          };
          expect([stored, overdue, row.status]).toEqual([stored, overdue, readCustomerStatus(stored, overdue)]);
        }
      }
    } finally {
      db.close();
    }
  });

  it('lets the nightly job store inactivity and its end, never over a manual status', () => {
    expect(nightlyCustomerStatus('active-current', { overdue: false, recentActivity: false })).toBe('inactive-activity');
    expect(nightlyCustomerStatus('active-overdue', { overdue: true, recentActivity: false })).toBe('inactive-activity');
    expect(nightlyCustomerStatus('inactive-activity', { overdue: true, recentActivity: true })).toBe('active-overdue');
    expect(nightlyCustomerStatus('inactive-activity', { overdue: false, recentActivity: true })).toBe('active-current');
    expect(nightlyCustomerStatus('inactive-manual', { overdue: false, recentActivity: true })).toBe('inactive-manual');
  });
});
