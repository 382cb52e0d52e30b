import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { describedAs } from './doc-fields';

/** How a write body is read beyond its DTO's own fields: declared once, on the DTO class. */
export interface BodyRules {
  /** Fields the resource returns but never accepts: named as read-only in the 400. */
  readOnly?: readonly string[];
  /** An empty object is refused ("No data"), as on creates. */
  requireData?: boolean;
  /** Payload reference fields accepted beside the DTO's own (`customer_token`, ...). */
  extraAllowed?: readonly string[];
  /**
   * Other names a field is also accepted under (`{ tax_name: ['name'] }`): at most one of
   * them may be sent ("Send only one of tax_name, name."), and the handler reads the field.
   */
  aliases?: Readonly<Record<string, readonly string[]>>;
  /** Fields that must be sent, under any of their names: "A required parameter was missing: "tax_name"." */
  required?: readonly string[];
}

const rulesOfDto = new WeakMap<object, BodyRules>();

/**
 * `@Body(...)` rules of a DTO class: `@BodyRules({ readOnly: CUSTOMER_READ_ONLY, requireData: true })`.
 * A subclass has its own rules, never its parent's (a create and an update DTO differ).
 */
export function BodyRules(rules: BodyRules): ClassDecorator {
  return (target) => {
    rulesOfDto.set(target, rules);
    describeRules(target.prototype as object, rules);
  };
}

/**
 * The rules in the OpenAPI document: payload references and aliases become properties of
 * the body's schema, required fields its `required` list (describing only: no validation).
 */
function describeRules(prototype: object, rules: BodyRules): void {
  for (const name of rules.extraAllowed ?? []) {
    const reference = name.endsWith('_id') ? 'integer' : 'string';
    ApiPropertyOptional({ type: reference, description: 'a payload reference (SPEC "Referencing objects")' })(
      prototype,
      name,
    );
  }
  for (const [field, names] of Object.entries(rules.aliases ?? {})) {
    // The alias reads as the field it stands for (its type and limits), under its own name.
    const described = describedAs(prototype, field);
    for (const name of names) {
      ApiPropertyOptional({ ...described, required: false, description: `another name of \`${field}\`` })(
        prototype,
        name,
      );
    }
  }
  for (const name of rules.required ?? []) {
    ApiProperty({ ...describedAs(prototype, name), required: true })(prototype, name);
  }
}

/** The rules declared on `dto` (none: no read-only fields, an empty body allowed). */
export function bodyRulesOf(dto: object): BodyRules {
  return rulesOfDto.get(dto) ?? {};
}
