import { ArgumentMetadata } from '@nestjs/common';
import { ApiError } from 'src/core/envelope/api-error';
import { BodyRules } from './body-rules';
import { DtoPipe } from './dto.pipe';
import { IntField, StrField } from './field-decorators';

class WidgetFieldsDto {
  @StrField(10) name?: string | null;
  @IntField() count?: number | null;
}

@BodyRules({ readOnly: ['widget_id'], requireData: true, extraAllowed: ['owner_token'] })
class CreateWidgetDto extends WidgetFieldsDto {}

@BodyRules({ readOnly: ['widget_id', 'owner_token'] })
class UpdateWidgetDto extends WidgetFieldsDto {}

@BodyRules({ required: ['widget_name', 'count'], aliases: { widget_name: ['name'] } })
class NamedWidgetDto {
  @StrField(10, false) widget_name!: string;
  @IntField() count!: number;
}

const pipe = new DtoPipe();
const bodyOf = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });

function message(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('DtoPipe', () => {
  it('hands the handler a typed instance of the parameter DTO', () => {
    const dto = pipe.transform({ name: 'w', count: 2, owner_token: 'abc' }, bodyOf(CreateWidgetDto));
    expect(dto).toBeInstanceOf(CreateWidgetDto);
    expect(dto).toMatchObject({ name: 'w', count: 2 });
  });

  it('reads the read-only, required-data and extra-field rules from the DTO class itself', () => {
    expect(message(() => pipe.transform({}, bodyOf(CreateWidgetDto)))).toBe(
      'A required parameter was missing: No data.',
    );
    expect(message(() => pipe.transform({ widget_id: 1 }, bodyOf(CreateWidgetDto)))).toBe(
      'Invalid field: "widget_id" is read-only.',
    );
    // The update DTO declares its own rules: an empty body is fine, the extra field is read-only there.
    expect(pipe.transform({}, bodyOf(UpdateWidgetDto))).toBeInstanceOf(UpdateWidgetDto);
    expect(message(() => pipe.transform({ owner_token: 'abc', colour: 'red' }, bodyOf(UpdateWidgetDto)))).toBe(
      'Invalid fields: "owner_token" is read-only; "colour" is not a known field.',
    );
  });

  it('reads an aliased field under its own name and names the field that is sent twice or missing', () => {
    const dto = pipe.transform({ name: 'w', count: 2 }, bodyOf(NamedWidgetDto));
    expect(dto).toEqual(Object.assign(new NamedWidgetDto(), { widget_name: 'w', count: 2 }));
    expect(pipe.transform({ widget_name: 'w', count: 2 }, bodyOf(NamedWidgetDto))).toEqual(dto);
    // Per field in order: sent twice, then missing; unknown fields before either.
    expect(message(() => pipe.transform({ name: 'w', widget_name: 'v' }, bodyOf(NamedWidgetDto)))).toBe(
      'Send only one of widget_name, name.',
    );
    expect(message(() => pipe.transform({ count: 2 }, bodyOf(NamedWidgetDto)))).toBe(
      'A required parameter was missing: "widget_name".',
    );
    expect(message(() => pipe.transform({ name: 'w' }, bodyOf(NamedWidgetDto)))).toBe(
      'A required parameter was missing: "count".',
    );
    expect(message(() => pipe.transform({ colour: 'red' }, bodyOf(NamedWidgetDto)))).toBe(
      'Invalid field: "colour" is not a known field.',
    );
    // A value sent under the alias is checked, and named, as the field.
    expect(message(() => pipe.transform({ name: 'much too long', count: 2 }, bodyOf(NamedWidgetDto)))).toContain(
      'Invalid field "widget_name"',
    );
  });

  it('names a field of the wrong type in the 400', () => {
    expect(message(() => pipe.transform({ count: 'many' }, bodyOf(CreateWidgetDto)))).toContain(
      'Invalid field "count"',
    );
  });

  it('refuses a parameter without a DTO type (a programming error, not a 400)', () => {
    expect(() => pipe.transform({}, bodyOf(Object))).toThrow('DtoPipe needs a DTO class');
  });
});
