import { FieldMap, QueryField } from './field-map';
import { lookupField } from './field-lookup';
import { LIKE_ESCAPE, containsPattern } from './like-pattern';
import { WhereCondition } from './where-parser';
import { BoundValue, toBoundValue } from './where-value';

/** One condition as SQL text (field expressions from the map only) plus its bound value. */
export interface WhereClause {
  sql: string;
  params: Record<string, BoundValue>;
}

const COMPARATORS = { EQUALS: '=', NOTEQUALS: '<>', GT: '>', LT: '<', GTE: '>=', LTE: '<=' } as const;

/**
 * Compiles a parsed condition against the field map. The client's value only ever
 * reaches the database as the parameter `:<paramName>`.
 */
export function compileWhereClause(
  fields: FieldMap,
  condition: WhereCondition,
  timezone: string,
  paramName: string,
): WhereClause {
  const field = lookupField(fields, condition.field, 'where');
  if (condition.op === 'IS:NULL' || condition.op === 'ISNOT:NULL') {
    return { sql: nullCheckSql(field, condition.op === 'IS:NULL'), params: {} };
  }
  if (condition.op === 'CONTAINS') {
    // Any field type: the column is matched as text, so the value is not type-checked.
    const sql = `${field.expr} LIKE :${paramName} ESCAPE '${LIKE_ESCAPE}'`;
    return { sql: withinField(field, sql), params: { [paramName]: containsPattern(condition.value) } };
  }
  const known = condition.op === 'EQUALS' && field.equals ? field.equals(condition.value) : null;
  if (known !== null) return { sql: `(${known})`, params: {} };
  const value = toBoundValue(condition.field, field.type, condition.value, timezone);
  // Decimal text is cast so MySQL compares it as DECIMAL, not as a double (string vs decimal).
  const operand = field.type === 'number' ? `CAST(:${paramName} AS DECIMAL(65,30))` : `:${paramName}`;
  const sql = `${field.expr} ${COMPARATORS[condition.op]} ${operand}`;
  return { sql: withinField(field, sql), params: { [paramName]: value } };
}

/** A nested field has no row of its own to be NULL: IS NULL means "has no child with a value". */
function nullCheckSql(field: QueryField, isNull: boolean): string {
  if (field.exists === undefined) return `(${field.expr} IS ${isNull ? '' : 'NOT '}NULL)`;
  return `(${isNull ? 'NOT ' : ''}EXISTS (${fillSubquery(field.exists, `${field.expr} IS NOT NULL`)}))`;
}

function withinField(field: QueryField, predicate: string): string {
  return field.exists === undefined ? `(${predicate})` : `(EXISTS (${fillSubquery(field.exists, predicate)}))`;
}

function fillSubquery(subquery: string, predicate: string): string {
  return subquery.split('{cond}').join(`(${predicate})`);
}
