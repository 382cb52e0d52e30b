import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type RulesLookup = (
  target: Function, // eslint-disable-line @typescript-eslint/no-unsafe-function-type -- class-validator's own signature
  schema: string,
  always: boolean,
  strictGroups: boolean,
  groups?: string[],
) => ValidationMetadata[];

let installed = false;

/**
 * class-validator works out a class's rules again on every validation, scanning every
 * decorated class for inheritance: a tenth of a create's CPU here. The rules are fixed
 * once the DTO modules are loaded (decorators run at import), so they are kept per
 * class and options. Validations with groups (not used here) are passed through.
 */
export function cacheValidationRules(): void {
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage();
  const lookup: RulesLookup = storage.getTargetValidationMetadatas.bind(storage);
  const cache = new Map<Function, Map<string, ValidationMetadata[]>>(); // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups && groups.length > 0) return lookup(target, schema, always, strictGroups, groups);
    let byOptions = cache.get(target);
    if (!byOptions) cache.set(target, (byOptions = new Map<string, ValidationMetadata[]>()));
    const key = `${schema}\u0000${always}\u0000${strictGroups}`;
    let rules = byOptions.get(key);
    if (!rules) byOptions.set(key, (rules = lookup(target, schema, always, strictGroups, groups)));
    return rules;
  };
}
