import Database from 'better-sqlite3';
import {
  INVOICE_STATUSES,
  InvoiceStatusStr,
  owesPastDue,
  owesPastDueSql,
  readStatus,
  readStatusEqualsSql,
  readStatusSql,
} from './invoice-status';

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

  it('filters by each status exactly as it reads, by an indexable condition', () => {
    const db = new Database(':memory:');
    try {
      const all = Object.keys(INVOICE_STATUSES) as InvoiceStatusStr[];
      for (const stored of all) {
        for (const due of ['2026-03-09', '2026-03-10', '2026-03-11']) {
          const matching = all.filter((value) => {
            const sql = readStatusEqualsSql('i', '2026-03-10', value)!;
            const row = db
              .prepare(`SELECT 1 FROM (SELECT ? AS invoice_status_str, ? AS due_date) i WHERE ${sql}`)
              .get(stored, due);
            return row !== undefined;
          });
          expect([stored, due, matching]).toEqual([stored, due, [readStatus(stored, due, '2026-03-10')]]);
        }
      }
      expect(readStatusEqualsSql('i', '2026-03-10', 'open')).toBeNull();
    } finally {
      db.close();
    }
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
