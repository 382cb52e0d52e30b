import { FieldMap } from 'src/core/query/field-map';
import { readStatusEqualsSql, readStatusSql } from './invoice-status';

const LINES = 'SELECT 1 FROM invoice_line ql WHERE ql.invoice_id = i.invoice_id AND {cond}';

/**
 * Invoice query fields (SPEC "Invoices"), for the list alias `i`. `today` (the account's
 * date, from the Clock) turns a stored `open-unpaid` past its due date into `open-overdue`,
 * exactly as the presenter does. Fields over other modules' tables
 * (`transaction.transaction_id`, `quote.quote_id`, `package_token`) come in as `extra`
 * through InvoiceExtensions.addQueryFields.
 */
export function invoiceQueryFields(today: string, extra: FieldMap): FieldMap {
  const status = readStatusSql('i', today);
  return {
    invoice_id: { expr: 'i.invoice_id', type: 'int' },
    refnumber: { expr: 'i.refnumber', type: 'string' },
    customer_id: { expr: 'i.customer_id', type: 'int' },
    bill_state: { expr: 'i.bill_state', type: 'string' },
    ship_state: { expr: 'i.ship_state', type: 'string' },
    bill_country: { expr: 'i.bill_country', type: 'string' },
    ship_country: { expr: 'i.ship_country', type: 'string' },
    invoice_status_str: { expr: status, type: 'string', equals: (value) => readStatusEqualsSql('i', today, value) },
    invoice_status_state: {
      expr: "(CASE WHEN i.invoice_status_str LIKE 'closed%' THEN 'c' ELSE 'o' END)",
      type: 'string',
    },
    package_id: { expr: 'i.package_id', type: 'int' },
    date: { expr: 'i.date', type: 'date' },
    /** The recorded traffic sorts by `invoice_date`. */
    invoice_date: { expr: 'i.date', type: 'date' },
    currency_id: { expr: 'i.currency_id', type: 'int' },
    token: { expr: 'i.token', type: 'string' },
    custom_1: { expr: 'i.custom_1', type: 'string' },
    custom_2: { expr: 'i.custom_2', type: 'string' },
    custom_3: { expr: 'i.custom_3', type: 'string' },
    'line_items.item_id': { expr: 'ql.item_id', type: 'int', exists: LINES },
    'line_items.custom_1': { expr: 'ql.custom_1', type: 'string', exists: LINES },
    'line_items.custom_2': { expr: 'ql.custom_2', type: 'string', exists: LINES },
    'line_items.custom_3': { expr: 'ql.custom_3', type: 'string', exists: LINES },
    write_datetime: { expr: 'i.write_datetime', type: 'datetime' },
    mod_datetime: { expr: 'i.mod_datetime', type: 'datetime' },
    ...extra,
  };
}
