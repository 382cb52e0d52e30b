import { FieldMap } from 'src/core/query/field-map';

/**
 * Customer query fields (SPEC "Customers"), for the list alias `c`. `status` is the status
 * as a read derives it (`customerStatusSql`), and the state follows it.
 */
export function customerQueryFields(status: string, statusEquals: (value: string) => string | null): FieldMap {
  return {
    customer_id: { expr: 'c.customer_id', type: 'int' },
    parent_customer_id: { expr: 'c.parent_customer_id', type: 'int' },
    bill_state: { expr: 'c.bill_state', type: 'string' },
    ship_state: { expr: 'c.ship_state', type: 'string' },
    bill_country: { expr: 'c.bill_country', type: 'string' },
    ship_country: { expr: 'c.ship_country', type: 'string' },
    external_key: { expr: 'c.external_key', type: 'string' },
    token: { expr: 'c.token', type: 'string' },
    company: { expr: 'c.company', type: 'string' },
    superuser_id: { expr: 'c.superuser_id', type: 'int' },
    superuser_email: {
      expr: 'qsu.email',
      type: 'string',
      exists: 'SELECT 1 FROM user qsu WHERE qsu.user_id = c.superuser_id AND qsu.deleted_datetime IS NULL AND {cond}',
    },
    custom_1: { expr: 'c.custom_1', type: 'string' },
    custom_2: { expr: 'c.custom_2', type: 'string' },
    custom_3: { expr: 'c.custom_3', type: 'string' },
    custom_4: { expr: 'c.custom_4', type: 'string' },
    custom_5: { expr: 'c.custom_5', type: 'string' },
    write_datetime: { expr: 'c.write_datetime', type: 'datetime' },
    mod_datetime: { expr: 'c.mod_datetime', type: 'datetime' },
    customer_status_str: { expr: status, type: 'string', equals: statusEquals },
    customer_status_state: {
      expr: `(CASE WHEN ${status} LIKE 'active%' THEN 'a' ELSE 'i' END)`,
      type: 'string',
    },
  };
}
