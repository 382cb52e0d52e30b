import { FieldMap } from 'src/core/query/field-map';
import { statusStateSql } from './transaction-status';

const APPLIED = 'SELECT 1 FROM transaction_applied qta WHERE qta.transaction_id = t.transaction_id AND {cond}';
const APPLIED_INVOICE =
  'SELECT 1 FROM transaction_applied qta INNER JOIN invoice qti ON qti.invoice_id = qta.invoice_id ' +
  'WHERE qta.transaction_id = t.transaction_id AND {cond}';
const APPLIED_PACKAGE =
  'SELECT 1 FROM transaction_applied qta INNER JOIN invoice qti ON qti.invoice_id = qta.invoice_id ' +
  'INNER JOIN package qtp ON qtp.package_id = qti.package_id WHERE qta.transaction_id = t.transaction_id AND {cond}';

/** Transaction query fields (SPEC "Transactions"), for the list alias `t`. */
export const TRANSACTION_QUERY_FIELDS: FieldMap = {
  transaction_id: { expr: 't.transaction_id', type: 'int' },
  customer_id: { expr: 't.customer_id', type: 'int' },
  gateway_id: { expr: 't.gateway_id', type: 'int' },
  currency_id: { expr: 't.currency_id', type: 'int' },
  creditcard_id: { expr: 't.creditcard_id', type: 'int' },
  ach_id: { expr: 't.ach_id', type: 'int' },
  tokenized_id: { expr: 't.tokenized_id', type: 'int' },
  token: { expr: 't.token', type: 'string' },
  external_key: { expr: 't.external_key', type: 'string' },
  gateway_status: { expr: 't.gateway_status', type: 'int' },
  gateway_transid: { expr: 't.gateway_transid', type: 'string' },
  amount: { expr: 't.amount', type: 'number' },
  fee: { expr: 't.fee', type: 'number' },
  transaction_type: { expr: 't.transaction_type', type: 'string' },
  transaction_method: { expr: 't.transaction_method', type: 'string' },
  transaction_detail: { expr: 't.transaction_detail', type: 'string' },
  transaction_datetime: { expr: 't.transaction_datetime', type: 'datetime' },
  'transaction_status.str': { expr: 't.status_str', type: 'string' },
  'transaction_status.state': { expr: statusStateSql('t.status_str'), type: 'string' },
  'applied_to.invoice_id': { expr: 'qta.invoice_id', type: 'int', exists: APPLIED },
  'applied_to.package_id': { expr: 'qti.package_id', type: 'int', exists: APPLIED_INVOICE },
  'applied_to.package_external_key': { expr: 'qtp.external_key', type: 'string', exists: APPLIED_PACKAGE },
};
