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

  it('names a field of the wrong type in the 400', () => {
    expect(message(() => pipe.transform({ count: 'many' }, bodyOf(CreateWidgetDto)))).toContain(
      'Invalid field "count"',
    );
  });

  it('refuses a parameter without a DTO type (a programming error, not a 400)', () => {
    expect(() => pipe.transform({}, bodyOf(Object))).toThrow('DtoPipe needs a DTO class');
  });
});
