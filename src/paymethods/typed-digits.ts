/** The digits of a card, account or routing number as people type it: spaces and dashes dropped. */
export function typedDigits(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}
