import { BodyRules } from 'src/core/validation/body-rules';
import { StrField } from 'src/core/validation/field-decorators';

/** `POST /_resthook`: `target_url` and `event` are required (checked by the service). */
@BodyRules({ readOnly: ['resthook_id', 'secret'], requireData: true })
export class CreateWebhookDto {
  @StrField(2048, false) target_url: string;
  @StrField(64, false) event: string;
  @StrField(255) nickname?: string | null;
}
