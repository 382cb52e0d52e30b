import { FieldMap } from 'src/core/query/field-map';

/** Item query fields (DESIGN §6 "Items and pricing"), for the list alias `it`. */
export const ITEM_QUERY_FIELDS: FieldMap = {
  item_id: { expr: 'it.item_id', type: 'int' },
  item_type: { expr: 'it.item_type', type: 'string' },
  name: { expr: 'it.name', type: 'string' },
  external_key: { expr: 'it.external_key', type: 'string' },
  token: { expr: 'it.token', type: 'string' },
  accounting_sku: { expr: 'it.accounting_sku', type: 'string' },
  enabled: { expr: 'it.enabled', type: 'bool' },
  custom_1: { expr: 'it.custom_1', type: 'string' },
  custom_2: { expr: 'it.custom_2', type: 'string' },
  custom_3: { expr: 'it.custom_3', type: 'string' },
  write_datetime: { expr: 'it.write_datetime', type: 'datetime' },
  mod_datetime: { expr: 'it.mod_datetime', type: 'datetime' },
};
