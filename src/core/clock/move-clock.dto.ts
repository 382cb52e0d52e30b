import { BodyRules } from 'src/core/validation/body-rules';
import { StrField } from 'src/core/validation/field-decorators';

/** `POST /_clock`: the moment to move to (any accepted datetime form). */
@BodyRules({ requireData: true })
export class MoveClockDto {
  @StrField(64, false) datetime: string;
}
