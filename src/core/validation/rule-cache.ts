import {
  getMetadataStorage,
  IS_OPTIONAL,
  validateSync,
  ValidationError,
  ValidationTypes,
  ValidatorOptions,
} from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator's own type for a class
type Target = Function;
type RulesLookup = (
  target: Target,
  schema: string,
  always: boolean,
  strictGroups: boolean,
  groups?: string[],
) => ValidationMetadata[];
type Grouped = Record<string, ValidationMetadata[]>;

/** Rule subsets kept per class and options; past this, subsets are built per call (any body shape is allowed). */
const MAX_SUBSETS = 256;

/** The rules of one class and options, with what validatePresent needs to narrow them. */
interface Rules {
  all: ValidationMetadata[];
  /** Properties marked @IsOptional: class-validator skips every rule of one that is null or undefined. */
  optional: string[];
  /** Subsets by the optional properties that have a value (`name\0name\0`). */
  subsets: Map<string, ValidationMetadata[]>;
}

/** The object validatePresent is validating, until class-validator asks for its class's rules. */
let presentScope: { target: Target; object: Record<string, unknown> } | null = null;
let installed = false;

/**
 * class-validator works out a class's rules again on every validation, scanning every
 * decorated class for inheritance, and groups them by property again: a tenth of a
 * create's CPU here. The rules are fixed once the DTO modules are loaded (decorators run
 * at import), so they are kept per class and options, and their grouping per rule list.
 * Validations with groups (not used here) are passed through.
 */
export function cacheValidationRules(): void {
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage();
  const lookup: RulesLookup = storage.getTargetValidationMetadatas.bind(storage);
  const groupByPropertyName: (rules: ValidationMetadata[]) => Grouped = storage.groupByPropertyName.bind(storage);
  const cache = new Map<Target, Map<string, Rules>>();
  const grouped = new WeakMap<ValidationMetadata[], Grouped>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups && groups.length > 0) return lookup(target, schema, always, strictGroups, groups);
    let byOptions = cache.get(target);
    if (!byOptions) cache.set(target, (byOptions = new Map<string, Rules>()));
    const key = `${schema}\u0000${always}\u0000${strictGroups}`;
    let rules = byOptions.get(key);
    if (!rules) byOptions.set(key, (rules = describeRules(lookup(target, schema, always, strictGroups, groups))));
    const scope = presentScope;
    if (scope === null || scope.target !== target) return rules.all;
    // Only the validated object itself: a nested object of the same class gets every rule.
    presentScope = null;
    return presentRules(rules, scope.object);
  };
  // Read-only use by the validator, so one grouping per rule list serves every call.
  storage.groupByPropertyName = (rules: ValidationMetadata[]) => {
    let byProperty = grouped.get(rules);
    if (!byProperty) grouped.set(rules, (byProperty = groupByPropertyName(rules)));
    return byProperty;
  };
}

/**
 * `validateSync` of `object`, visiting only the properties whose rules can fail: every
 * property not marked @IsOptional, and those marked @IsOptional that hold a value.
 * class-validator itself runs no rule of an @IsOptional property that is null or
 * undefined, so the outcome is the same; what is saved is its work per property, which
 * on a 60-field DTO and a 3-field body was most of the validation's time.
 */
export function validatePresent(object: object, options: ValidatorOptions): ValidationError[] {
  cacheValidationRules();
  presentScope = { target: object.constructor, object: object as Record<string, unknown> };
  try {
    return validateSync(object, options);
  } finally {
    presentScope = null;
  }
}

function describeRules(all: ValidationMetadata[]): Rules {
  const optional = new Set<string>();
  for (const rule of all) {
    if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION && rule.name === IS_OPTIONAL)
      optional.add(rule.propertyName);
  }
  return { all, optional: [...optional], subsets: new Map() };
}

function presentRules(rules: Rules, object: Record<string, unknown>): ValidationMetadata[] {
  let key = '';
  for (const property of rules.optional) {
    const value = object[property];
    if (value !== undefined && value !== null) key += `${property}\u0000`;
  }
  let subset = rules.subsets.get(key);
  if (subset) return subset;
  const skipped = new Set(
    rules.optional.filter((property) => object[property] === undefined || object[property] === null),
  );
  subset = rules.all.filter((rule) => !skipped.has(rule.propertyName));
  if (rules.subsets.size < MAX_SUBSETS) rules.subsets.set(key, subset);
  return subset;
}
