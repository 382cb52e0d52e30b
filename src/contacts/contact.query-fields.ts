import { FieldMap } from 'src/core/query/field-map';

/** Contact query fields (SPEC "Contacts"), for the list alias `u`. */
export const CONTACT_QUERY_FIELDS: FieldMap = {
  user_id: { expr: 'u.user_id', type: 'int' },
  external_key: { expr: 'u.external_key', type: 'string' },
  first_name: { expr: 'u.first_name', type: 'string' },
  last_name: { expr: 'u.last_name', type: 'string' },
  email: { expr: 'u.email', type: 'string' },
  phone: { expr: 'u.phone', type: 'string' },
  user_type_id: { expr: 'u.user_type_id', type: 'int' },
  username: { expr: 'u.username', type: 'string' },
  // A contact belongs to one customer; the nested name is kept for wire compatibility.
  'customers.customer_id': { expr: 'u.customer_id', type: 'int' },
};
