import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  getMetadataStorage,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Min,
  ValidateIf,
  ValidateNested,
  validateSync,
  ValidationError,
} from 'class-validator';
import fc from 'fast-check';
import { cacheValidationRules, validatePresent } from './rule-cache';

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

class Inner {
  @IsOptional() @IsInt() n?: number;
  @IsString() label: string;
}

/** Every kind of rule a body can meet: optional, required, IsDefined, ValidateIf, nested (of its own class too). */
class Probe {
  @IsOptional() @IsString() a?: string;
  @IsOptional() @IsInt() @Min(1) b?: number;
  @IsString() required: string;
  @IsDefined() @IsInt() defined: number;
  @IsOptional() @ValidateIf((o: Probe) => o.a === 'x') @IsInt() c?: number;
  @ValidateIf((o: Probe) => typeof o.b === 'number' && o.b > 5) @IsString() d?: string;
  @IsOptional() @ValidateNested() @Type(() => Inner) inner?: Inner;
  @IsOptional() @ValidateNested() @Type(() => Probe) self?: Probe;
}

type Outline = { property: string; constraints: string[]; children: Outline[] };
const outline = (errors: ValidationError[]): Outline[] =>
  errors.map((e) => ({
    property: e.property,
    constraints: Object.keys(e.constraints ?? {}).sort(),
    children: outline(e.children ?? []),
  }));

/** A field's value: left out, null, or a value of several types (valid for some rules, not others). */
const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant('x'),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -2, max: 9 }),
  fc.constant(1.5),
  fc.constant(true),
);
const innerBody = fc.record({ n: anyValue, label: anyValue }, { requiredKeys: [] });
const probeFields = { a: anyValue, b: anyValue, required: anyValue, defined: anyValue, c: anyValue, d: anyValue };
const probeBody = fc.record(
  {
    ...probeFields,
    inner: fc.oneof(anyValue, innerBody),
    self: fc.oneof(anyValue, fc.record(probeFields, { requiredKeys: [] })),
  },
  { requiredKeys: [] },
);

describe('validatePresent', () => {
  const options = { skipMissingProperties: false, forbidUnknownValues: false };

  it('finds exactly the errors validateSync finds, for any body', () => {
    fc.assert(
      fc.property(probeBody, (body) => {
        const expected = outline(validateSync(plainToInstance(Probe, body), options));
        expect(outline(validatePresent(plainToInstance(Probe, body), options))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('still finds a missing required field and a wrong value beside absent optional ones', () => {
    const errors = validatePresent(plainToInstance(Probe, { b: 0, defined: 1 }), options);
    expect(outline(errors).map((e) => [e.property, e.constraints])).toEqual([
      ['b', ['min']],
      ['required', ['isString']],
    ]);
    // A nested object of the same class is checked against every rule, its own absent fields included.
    const nested = validatePresent(plainToInstance(Probe, { required: 'r', defined: 1, self: {} }), options);
    expect(outline(nested)[0].children.map((c) => c.property)).toEqual(['required', 'defined']);
  });
});
