import { ApiError } from 'src/core/envelope/api-error';
import { quoteClientText } from './query-param';

export const VALUE_OPERATORS = ['EQUALS', 'NOTEQUALS', 'GT', 'LT', 'GTE', 'LTE', 'CONTAINS'] as const;
export const NULL_OPERATORS = ['IS:NULL', 'ISNOT:NULL'] as const;

export type ValueOperator = (typeof VALUE_OPERATORS)[number];
export type NullOperator = (typeof NULL_OPERATORS)[number];
export type WhereOperator = ValueOperator | NullOperator;

/** One parsed `field:OPERATOR:value` condition; the value is unescaped, still untyped text. */
export type WhereCondition =
  | { field: string; op: ValueOperator; value: string }
  // One member per null operator, so checking `op` narrows the union (and `value`).
  | { field: string; op: 'IS:NULL'; value?: undefined }
  | { field: string; op: 'ISNOT:NULL'; value?: undefined };

/** Enough for any real filter; bounds the SQL a single request can make us build. */
export const MAX_WHERE_CONDITIONS = 50;

const OPERATOR_LIST = [...VALUE_OPERATORS, ...NULL_OPERATORS].join(', ');

/** A condition split on its first two unescaped colons, with escapes already resolved. */
interface SplitCondition {
  /** field, operator, value (whatever is present). */
  parts: string[];
  /** The condition as the client wrote it, for error messages. */
  source: string;
}

/**
 * Parses `?where=` (SPEC "List filter"): conditions separated by unescaped commas, all of
 * which apply. A backslash makes the next character literal (`\:`, `\,`, `\\`). Only the
 * first two unescaped colons split a condition, so a value may carry plain colons
 * (`write_datetime:GT:2026-01-01 10:00:00`).
 */
export function parseWhere(raw: string | undefined): WhereCondition[] {
  if (raw === undefined) return [];
  const split = splitConditions(raw).filter((c) => c.source.trim() !== '');
  if (split.length > MAX_WHERE_CONDITIONS) {
    throw ApiError.badRequest(`Too many where conditions: at most ${MAX_WHERE_CONDITIONS} are allowed.`);
  }
  return split.map(toCondition);
}

function splitConditions(raw: string): SplitCondition[] {
  const conditions: SplitCondition[] = [];
  let parts: string[] = [];
  let current = '';
  let source = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '\\' && i + 1 < raw.length) {
      current += raw[i + 1];
      source += ch + raw[i + 1];
      i++;
    } else if (ch === ',') {
      conditions.push({ parts: [...parts, current], source });
      parts = [];
      current = '';
      source = '';
    } else if (ch === ':' && parts.length < 2) {
      parts.push(current);
      current = '';
      source += ch;
    } else {
      // A trailing lone backslash also lands here: it is kept as a literal.
      current += ch;
      source += ch;
    }
  }
  conditions.push({ parts: [...parts, current], source });
  return conditions;
}

function toCondition({ parts, source }: SplitCondition): WhereCondition {
  const field = parts[0].trim();
  if (field === '' || parts.length < 2) throw malformed(source);
  const op = parts[1].trim().toUpperCase();
  const value = parts.length === 3 ? parts[2] : undefined;

  if (op === 'IS' || op === 'ISNOT') {
    if (value === undefined || value.trim().toUpperCase() !== 'NULL') {
      throw ApiError.badRequest(
        `Malformed where condition ${quoteClientText(source)}: ${op} must be followed by :NULL.`,
      );
    }
    return { field, op: op === 'IS' ? 'IS:NULL' : 'ISNOT:NULL' };
  }
  if (!isValueOperator(op)) {
    throw ApiError.badRequest(
      `Unknown operator in where: ${quoteClientText(parts[1].trim())}. Allowed operators: ${OPERATOR_LIST}.`,
    );
  }
  if (value === undefined) throw malformed(source);
  return { field, op, value };
}

function isValueOperator(op: string): op is ValueOperator {
  return (VALUE_OPERATORS as readonly string[]).includes(op);
}

function malformed(source: string): ApiError {
  return ApiError.badRequest(
    `Malformed where condition ${quoteClientText(source)}: expected <field>:<OPERATOR>:<value>.`,
  );
}
