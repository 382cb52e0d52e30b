import { FieldMap } from 'src/core/query/field-map';

/** Query fields of `/creditcard` (alias `pm`). */
export const CARD_QUERY_FIELDS: FieldMap = {
  creditcard_id: { expr: 'pm.creditcard_id', type: 'int' },
  customer_id: { expr: 'pm.customer_id', type: 'int' },
  external_key: { expr: 'pm.external_key', type: 'string' },
  token: { expr: 'pm.token', type: 'string' },
  write_datetime: { expr: 'pm.write_datetime', type: 'datetime' },
};

/** Query fields of `/ach` (alias `pm`). */
export const BANK_ACCOUNT_QUERY_FIELDS: FieldMap = {
  ach_id: { expr: 'pm.ach_id', type: 'int' },
  customer_id: { expr: 'pm.customer_id', type: 'int' },
  external_key: { expr: 'pm.external_key', type: 'string' },
  token: { expr: 'pm.token', type: 'string' },
  write_datetime: { expr: 'pm.write_datetime', type: 'datetime' },
};

/** Query fields of `/tokenized` (alias `pm`). */
export const TOKENIZED_QUERY_FIELDS: FieldMap = {
  tokenized_id: { expr: 'pm.tokenized_id', type: 'int' },
  customer_id: { expr: 'pm.customer_id', type: 'int' },
  write_datetime: { expr: 'pm.write_datetime', type: 'datetime' },
};
