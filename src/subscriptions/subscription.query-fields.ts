import { FieldMap } from 'src/core/query/field-map';
import { statusSql } from './subscription-status';

const LINES =
  'SELECT 1 FROM package_line ql WHERE ql.package_id = p.package_id AND ql.cancel_datetime IS NULL AND {cond}';

/**
 * Subscription query fields (DESIGN §6 "Subscriptions") for the list alias `p`. The
 * status is derived as the reader derives it, as of `now` / `today` (our literals).
 */
export function subscriptionQueryFields(now: string, today: string): FieldMap {
  const status = statusSql(now, today);
  return {
    package_id: { expr: 'p.package_id', type: 'int' },
    customer_id: { expr: 'p.customer_id', type: 'int' },
    external_key: { expr: 'p.external_key', type: 'string' },
    token: { expr: 'p.token', type: 'string' },
    nickname: { expr: 'p.nickname', type: 'string' },
    paycycle: { expr: 'p.paycycle', type: 'string' },
    paymethod: { expr: 'p.paymethod', type: 'string' },
    package_status_str: { expr: status, type: 'string' },
    package_status_state: {
      expr: `(CASE WHEN ${status} LIKE 'active-%' THEN 'a' WHEN ${status} LIKE 'suspended-%' THEN 's'
        WHEN ${status} LIKE 'canceled-%' THEN 'c' ELSE 'e' END)`,
      type: 'string',
    },
    next_invoice_datetime: { expr: 'p.next_invoice_datetime', type: 'datetime' },
    write_datetime: { expr: 'p.write_datetime', type: 'datetime' },
    mod_datetime: { expr: 'p.mod_datetime', type: 'datetime' },
    'line_items.item_id': { expr: 'ql.item_id', type: 'int', exists: LINES },
    custom_1: { expr: 'p.custom_1', type: 'string' },
    custom_2: { expr: 'p.custom_2', type: 'string' },
    custom_3: { expr: 'p.custom_3', type: 'string' },
  };
}
