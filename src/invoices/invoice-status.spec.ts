import { readStatus, readStatusSql } from './invoice-status';

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
});
