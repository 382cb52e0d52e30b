import { owesPastDue, owesPastDueSql, readStatus, readStatusSql } from './invoice-status';

describe('reading a stored invoice status', () => {
  it('reads an unpaid invoice past its due date as overdue, and nothing else', () => {
    expect(readStatus('open-unpaid', '2026-03-09', '2026-03-10')).toBe('open-overdue');
    expect(readStatus('open-unpaid', '2026-03-10', '2026-03-10')).toBe('open-unpaid');
    expect(readStatus('closed-paid', '2026-01-01', '2026-03-10')).toBe('closed-paid');
    expect(readStatus('open-collections', '2026-01-01', '2026-03-10')).toBe('open-collections');
  });

  it('says the same in SQL, and refuses anything but a date', () => {
    expect(readStatusSql('i', '2026-03-10')).toBe(
      "(CASE WHEN i.invoice_status_str = 'open-unpaid' AND i.due_date < '2026-03-10' THEN 'open-overdue' ELSE i.invoice_status_str END)",
    );
    expect(() => readStatusSql('i', "2026-03-10' OR 1=1")).toThrow('Bad account date');
  });

  it('owes past due while open (collections too) and due before today, in TS and SQL alike', () => {
    expect(owesPastDue('open-unpaid', '2026-03-09', '2026-03-10')).toBe(true);
    expect(owesPastDue('open-collections', '2026-03-09', '2026-03-10')).toBe(true);
    expect(owesPastDue('open-unpaid', '2026-03-10', '2026-03-10')).toBe(false);
    expect(owesPastDue('closed-paid', '2026-01-01', '2026-03-10')).toBe(false);
    expect(owesPastDueSql('io', ':today')).toBe(
      "(io.invoice_status_str IN ('open-unpaid', 'open-overdue', 'open-collections') AND io.due_date < :today)",
    );
  });
});
