import { StrField } from 'src/core/validation/field-decorators';

/** `POST /_resthook`: `target_url` and `event` are required (checked by the service). */
export class CreateWebhookDto {
  @StrField(2048, false) target_url: string;
  @StrField(64, false) event: string;
  @StrField(255) nickname?: string | null;
}
