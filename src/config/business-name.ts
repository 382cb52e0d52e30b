import { AppConfig } from './app-config';

/** The business named on documents and mail: BUSINESS_NAME, else the host of PUBLIC_URL. */
export function businessNameOf(config: AppConfig): string {
  return config.businessName ?? new URL(config.publicUrl).hostname;
}
