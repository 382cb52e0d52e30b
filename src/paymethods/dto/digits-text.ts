import { Transform } from 'class-transformer';

/** A card or account number sent as a JSON number is read as its digits. */
export const digitsText = Transform(({ value }: { value: unknown }) =>
  typeof value === 'number' ? String(value) : value,
);
