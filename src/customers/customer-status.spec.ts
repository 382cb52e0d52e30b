import Database from 'better-sqlite3';
import { CUSTOMER_STATUSES, customerStatusSql, nightlyCustomerStatus, readCustomerStatus } from './customer-status';

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

  it('lets the nightly job store inactivity and its end, never over a manual status', () => {
    expect(nightlyCustomerStatus('active-current', { overdue: false, recentActivity: false })).toBe('inactive-activity');
    expect(nightlyCustomerStatus('active-overdue', { overdue: true, recentActivity: false })).toBe('inactive-activity');
    expect(nightlyCustomerStatus('inactive-activity', { overdue: true, recentActivity: true })).toBe('active-overdue');
    expect(nightlyCustomerStatus('inactive-activity', { overdue: false, recentActivity: true })).toBe('active-current');
    expect(nightlyCustomerStatus('inactive-manual', { overdue: false, recentActivity: true })).toBe('inactive-manual');
  });
});
