import { FieldMap } from 'src/core/query/field-map';

/** `/_resthook` list fields (indexed columns only), for the alias `w`. */
export const WEBHOOK_QUERY_FIELDS: FieldMap = {
  resthook_id: { expr: 'w.webhook_id', type: 'int' },
  event: { expr: 'w.event', type: 'string' },
  write_datetime: { expr: 'w.write_datetime', type: 'datetime' },
};

/** `/webhook_log` and `/_resthook/<id>/_log` fields (indexed columns only), for the alias `d`. */
export const WEBHOOK_LOG_QUERY_FIELDS: FieldMap = {
  webhook_log_id: { expr: 'd.webhook_delivery_id', type: 'int' },
  resthook_id: { expr: 'd.webhook_id', type: 'int' },
  status: { expr: 'd.status', type: 'string' },
  context_str: { expr: 'd.context_str', type: 'string' },
  context_id: { expr: 'd.context_id', type: 'string' },
  write_datetime: { expr: 'd.write_datetime', type: 'datetime' },
};
