import { ApiError } from 'src/core/envelope/api-error';
import { BodyRules } from './body-rules';
import {
  BoolField,
  customFieldsDto,
  DateInputField,
  EnumField,
  IntField,
  MixedField,
  Present,
  StrField,
  StringListField,
} from './field-decorators';
import { DtoClass, isPlainObject, validateBody } from './validate-body';

@customFieldsDto(2)
class WidgetDto {
  @StrField(10) name?: string | null;
  @StrField(20, false) code?: string;
  @IntField() count?: number | null;
  @IntField({ min: 0, nullable: false }) stock?: number;
  @BoolField() active?: boolean;
  @EnumField(['mon', 'yrl']) paycycle?: string;
  @MixedField() note?: string | null;
  @StringListField() tags?: string[];
  @DateInputField() start_datetime?: string;
  custom_1?: string | null;
  custom_2?: string | null;
}

class RequiredNameDto {
  @Present()
  @StrField(10, false)
  name?: string;
}

/** The widget as a create reads it: an empty body is refused. */
@BodyRules({ requireData: true })
class CreateWidgetDto extends WidgetDto {}

/** The widget as an update reads it: `widget_id` is read-only. */
@BodyRules({ readOnly: ['widget_id'] })
class UpdateWidgetDto extends WidgetDto {}

/** The widget with a payload reference accepted beside its own fields. */
@BodyRules({ extraAllowed: ['customer_token'] })
class OwnedWidgetDto extends WidgetDto {}

/** Runs validateBody and returns the 400 message (or fails the test when it passes). */
function refusal(body: unknown, dto: DtoClass<object> = WidgetDto): string {
  try {
    validateBody(dto, body);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error(`expected ${JSON.stringify(body)} to be refused`);
}

describe('validateBody', () => {
  describe('shape', () => {
    it.each([[[{}]], [['a']], ['text'], [42], [true]])('refuses a non-object body %j', (body) => {
      expect(refusal(body)).toBe('The request body must be a JSON object.');
    });

    it('reads [] as an empty object, as PHP clients send it', () => {
      expect(validateBody(WidgetDto, [])).toBeInstanceOf(WidgetDto);
      expect(refusal([], CreateWidgetDto)).toBe('A required parameter was missing: No data.');
    });

    it('treats a missing body as empty', () => {
      expect(validateBody(WidgetDto, undefined)).toBeInstanceOf(WidgetDto);
      expect(validateBody(WidgetDto, null)).toBeInstanceOf(WidgetDto);
    });

    it('refuses an empty body when data is required', () => {
      expect(refusal({}, CreateWidgetDto)).toBe('A required parameter was missing: No data.');
      expect(refusal(undefined, CreateWidgetDto)).toBe('A required parameter was missing: No data.');
    });

    it('names an unknown field', () => {
      expect(refusal({ name: 'a', colour: 'red' })).toBe('Invalid field: "colour" is not a known field.');
    });

    it('names a read-only field as read-only', () => {
      expect(refusal({ widget_id: 5 }, UpdateWidgetDto)).toBe('Invalid field: "widget_id" is read-only.');
    });

    it('lists every refused field', () => {
      expect(refusal({ widget_id: 5, colour: 'red', size: 3 }, UpdateWidgetDto)).toBe(
        'Invalid fields: "widget_id" is read-only; "colour" is not a known field; "size" is not a known field.',
      );
    });

    it('lets extra allowed fields through untouched', () => {
      const dto = validateBody(OwnedWidgetDto, { name: 'a', customer_token: 'abc123' });
      expect(dto).toMatchObject({ name: 'a', customer_token: 'abc123' });
    });

    it('knows the custom_N fields a class decorator added', () => {
      expect(validateBody(WidgetDto, { custom_1: 'x', custom_2: 7 })).toMatchObject({ custom_1: 'x', custom_2: '7' });
      expect(refusal({ custom_3: 'x' })).toBe('Invalid field: "custom_3" is not a known field.');
    });

    it('lists several invalid values in one message', () => {
      const message = refusal({ count: 'many', active: 'yes' });
      expect(message).toContain('Invalid field "count": count must be an integer.');
      expect(message).toContain('Invalid field "active": active must be a boolean (true or false).');
    });
  });

  describe('IntField', () => {
    it('accepts integers and coerces numeric strings', () => {
      expect(validateBody(WidgetDto, { count: 42 }).count).toBe(42);
      expect(validateBody(WidgetDto, { count: '42' }).count).toBe(42);
    });

    it.each([[4.5], ['4.5'], ['42abc'], [''], [true]])('refuses %j', (count) => {
      expect(refusal({ count })).toBe('Invalid field "count": count must be an integer.');
    });

    it('applies the minimum (1 by default)', () => {
      expect(refusal({ count: 0 })).toBe('Invalid field "count": count must not be less than 1.');
      expect(validateBody(WidgetDto, { stock: 0 }).stock).toBe(0);
      expect(refusal({ stock: -1 })).toBe('Invalid field "stock": stock must not be less than 0.');
    });

    it('refuses values above the 32-bit id range', () => {
      expect(refusal({ count: 2147483648 })).toBe('Invalid field "count": count must not be greater than 2147483647.');
    });

    it('accepts null only when nullable', () => {
      expect(validateBody(WidgetDto, { count: null }).count).toBeNull();
      expect(refusal({ stock: null })).toBe('Invalid field "stock": stock must be an integer.');
    });
  });

  describe('BoolField', () => {
    it.each([
      [true, true],
      [false, false],
      [1, true],
      [0, false],
      ['1', true],
      ['0', false],
      ['true', true],
      ['false', false],
    ])('reads %j as %s', (active, expected) => {
      expect(validateBody(WidgetDto, { active }).active).toBe(expected);
    });

    it.each([['yes'], [2], [null], ['TRUE']])('refuses %j', (active) => {
      expect(refusal({ active })).toBe('Invalid field "active": active must be a boolean (true or false).');
    });
  });

  describe('StrField', () => {
    it('accepts a string up to the maximum length', () => {
      expect(validateBody(WidgetDto, { name: '0123456789' }).name).toBe('0123456789');
    });

    it('refuses a longer string', () => {
      expect(refusal({ name: '01234567890' })).toBe(
        'Invalid field "name": name must be shorter than or equal to 10 characters.',
      );
    });

    it('refuses a number', () => {
      expect(refusal({ name: 5 })).toContain('Invalid field "name": name must be a string');
    });

    it('accepts null only when nullable', () => {
      expect(validateBody(WidgetDto, { name: null }).name).toBeNull();
      expect(refusal({ code: null })).toBe('Invalid field "code": code must be a string.');
    });

    it('with Present, still validates a present field', () => {
      expect(validateBody(RequiredNameDto, { name: 'Ada' }).name).toBe('Ada');
      expect(() => validateBody(RequiredNameDto, { name: 3 })).toThrow('Invalid field "name": name must be a string');
    });
  });

  describe('EnumField', () => {
    it('accepts an allowed value', () => {
      expect(validateBody(WidgetDto, { paycycle: 'yrl' }).paycycle).toBe('yrl');
    });

    it('lists the allowed values when refusing', () => {
      expect(refusal({ paycycle: 'weekly' })).toBe('Invalid field "paycycle": paycycle must be one of: mon, yrl.');
    });
  });

  describe('MixedField', () => {
    it('stores numbers and booleans as their text', () => {
      expect(validateBody(WidgetDto, { note: 5 }).note).toBe('5');
      expect(validateBody(WidgetDto, { note: 2.5 }).note).toBe('2.5');
      expect(validateBody(WidgetDto, { note: true }).note).toBe('true');
      expect(validateBody(WidgetDto, { note: 'hi' }).note).toBe('hi');
      expect(validateBody(WidgetDto, { note: null }).note).toBeNull();
    });

    it.each([[{ a: 1 }], [['a']]])('refuses %j', (note) => {
      expect(refusal({ note })).toBe('Invalid field "note": note must be a string, number or boolean.');
    });
  });

  describe('StringListField', () => {
    it('accepts an array of short strings', () => {
      expect(validateBody(WidgetDto, { tags: ['a', 'b'] }).tags).toEqual(['a', 'b']);
    });

    it('refuses a non-array and non-string items', () => {
      expect(refusal({ tags: 'a' })).toContain('Invalid field "tags": tags must be an array of strings');
      expect(refusal({ tags: ['a', 1] })).toBe('Invalid field "tags": tags must be an array of strings.');
    });

    it('refuses an item over 64 characters', () => {
      expect(refusal({ tags: ['x'.repeat(65)] })).toContain('Invalid field "tags"');
    });
  });

  describe('DateInputField', () => {
    it.each(['2026-01-15', '2026-01-15 12:00:00', '2026-01-15T12:00:00-06:00'])('accepts %s', (value) => {
      expect(validateBody(WidgetDto, { start_datetime: value }).start_datetime).toBe(value);
    });

    it.each(['15/01/2026', 'tomorrow', '2026-01-15 12:00'])('refuses %s', (value) => {
      expect(refusal({ start_datetime: value })).toBe(
        'Invalid field "start_datetime": start_datetime must be YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or an ISO 8601 datetime with offset.',
      );
    });

    it('refuses a number', () => {
      expect(refusal({ start_datetime: 20260115 })).toContain('Invalid field "start_datetime"');
    });
  });
});

describe('isPlainObject', () => {
  it('is true only for non-null, non-array objects', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject('x')).toBe(false);
  });
});
