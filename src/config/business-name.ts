import { readFileSync } from 'node:fs';
import { AppConfig } from './app-config';

/** The business named on documents and mail: BUSINESS_NAME, else the host of PUBLIC_URL. */
export function businessNameOf(config: AppConfig): string {
  return config.businessName ?? new URL(config.publicUrl).hostname;
}

/** The seller as documents show it (BUSINESS_ADDRESS, BUSINESS_TAX_ID, BUSINESS_LOGO_PATH). */
export interface Seller {
  name: string;
  /** The address lines (BUSINESS_ADDRESS split at newlines or a written `\n`). */
  addressLines: string[];
  taxId: string | null;
  /** The logo file's bytes, for PDFs. */
  logo: Buffer | null;
  /** The same logo as a `data:` URI, for HTML pages (their CSP allows `data:` images). */
  logoDataUri: string | null;
  /** Whether there is more to show than the name (address, tax id or logo). */
  shown: boolean;
}

/** The seller, its logo read once (load-config checked that the file exists). */
export function sellerOf(config: AppConfig): Seller {
  const logo = config.businessLogoPath ? readFileSync(config.businessLogoPath) : null;
  const type = /\.png$/i.test(config.businessLogoPath ?? '') ? 'image/png' : 'image/jpeg';
  const addressLines = (config.businessAddress ?? '')
    .split(/\r?\n|\\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const taxId = config.businessTaxId?.trim() || null;
  return {
    name: businessNameOf(config),
    addressLines,
    taxId,
    logo,
    logoDataUri: logo ? `data:${type};base64,${logo.toString('base64')}` : null,
    shown: addressLines.length > 0 || taxId !== null || logo !== null,
  };
}
