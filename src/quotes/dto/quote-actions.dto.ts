import { StrField } from 'src/core/validation/field-decorators';

/** Action email: to the given addresses (comma separated), else to the customer's contacts. */
export class QuoteEmailDto {
  @StrField(1024) email?: string;
  @StrField() subject?: string;
  @StrField(65535) body?: string;
}
