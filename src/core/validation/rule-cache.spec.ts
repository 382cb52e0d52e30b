import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsString, validateSync } from 'class-validator';
import { cacheValidationRules } from './rule-cache';

class Base {
  @IsString() name: string;
}

class Child extends Base {
  @IsInt() count: number;
}

describe('cacheValidationRules', () => {
  it('answers the same rules as class-validator, inherited ones included, and validates the same', () => {
    const storage = getMetadataStorage();
    const before = storage.getTargetValidationMetadatas(Child, '', true, false);
    cacheValidationRules();
    cacheValidationRules(); // idempotent
    const after = storage.getTargetValidationMetadatas(Child, '', true, false);
    expect(after.map((m) => `${m.propertyName}:${m.name ?? m.type}`).sort()).toEqual(
      before.map((m) => `${m.propertyName}:${m.name ?? m.type}`).sort(),
    );
    expect(storage.getTargetValidationMetadatas(Child, '', true, false)).toBe(after);

    const bad = Object.assign(new Child(), { name: 5, count: 'x' });
    expect(
      validateSync(bad)
        .map((e) => e.property)
        .sort(),
    ).toEqual(['count', 'name']);
    const good = Object.assign(new Child(), { name: 'ok', count: 3 });
    expect(validateSync(good)).toEqual([]);
  });
});
