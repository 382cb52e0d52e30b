import { ApiError } from 'src/core/envelope/api-error';
import { FieldMap, QueryField } from './field-map';
import { quoteClientText } from './query-param';

/**
 * Resolves a client field name against the resource's map. An own-property check, so
 * names like `constructor` or `__proto__` are unknown fields, not Object internals.
 */
export function lookupField(fields: FieldMap, name: string, param: 'where' | 'order'): QueryField {
  const field = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
  if (field === undefined || (param === 'order' && field.exists !== undefined)) {
    const allowed = Object.keys(fields).filter((key) => param === 'where' || fields[key].exists === undefined);
    const problem = field === undefined ? 'Unknown field' : 'Cannot sort by the nested field';
    throw ApiError.badRequest(
      `${problem} in ${param}: ${quoteClientText(name)}. Allowed fields: ${allowed.join(', ')}.`,
    );
  }
  return field;
}
