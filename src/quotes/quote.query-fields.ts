import { FieldMap } from 'src/core/query/field-map';

/** Quote query fields (DESIGN §6 "Quotes") for the list alias `q`. */
export const QUOTE_QUERY_FIELDS: FieldMap = {
  quote_id: { expr: 'q.quote_id', type: 'int' },
  customer_id: { expr: 'q.customer_id', type: 'int' },
  refnumber: { expr: 'q.refnumber', type: 'string' },
  external_key: { expr: 'q.external_key', type: 'string' },
  token: { expr: 'q.token', type: 'string' },
  quote_status_str: { expr: 'q.quote_status_str', type: 'string' },
  quote_status_state: { expr: "(CASE WHEN q.quote_status_str LIKE 'open-%' THEN 'o' ELSE 'c' END)", type: 'string' },
  paycycle: { expr: 'q.paycycle', type: 'string' },
  date: { expr: 'q.date', type: 'date' },
  write_datetime: { expr: 'q.write_datetime', type: 'datetime' },
  mod_datetime: { expr: 'q.mod_datetime', type: 'datetime' },
};
