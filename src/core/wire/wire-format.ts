import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { DatetimeRenderer } from 'src/core/time/datetime-format';

/** What presenters need to render any resource: datetimes in the account zone and links. */
@Injectable()
export class WireFormat {
  private readonly renderer: DatetimeRenderer;
  readonly publicUrl: string;
  readonly timezone: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.renderer = new DatetimeRenderer(config.timezone, config.datetimeFormat);
    this.publicUrl = config.publicUrl;
    this.timezone = config.timezone;
  }

  datetime(value: Date | null | undefined): string | null {
    return this.renderer.datetime(value);
  }

  date(value: string | Date | null | undefined): string | null {
    return this.renderer.date(value);
  }

  /** `{base}/api/v3/<resource>/<id>`: `url_self` and the `Location` header. */
  apiUrl(resource: string, id: number): string {
    return `${this.publicUrl}/api/v3/${resource}/${id}`;
  }

  /** A hosted page under the account's address, e.g. `r/paymethod/i/<token>`. */
  pageUrl(path: string): string {
    return `${this.publicUrl}/${path}`;
  }
}

/** A printable address block: street lines, "city state postcode", country (as the recorded traffic). */
export function addressBlock(parts: {
  addr1: string | null;
  addr2: string | null;
  addr3: string | null;
  city: string | null;
  state: string | null;
  postcode: string | null;
  country: string | null;
}): string {
  const present = (v: string | null): v is string => v !== null && v.trim() !== '';
  const locality = [parts.city, parts.state, parts.postcode].filter(present).join(' ');
  return [parts.addr1, parts.addr2, parts.addr3, locality, parts.country].filter(present).join('\n');
}
