/** True when the card's expiry month is over (good through the month's last day). */
export function isCardExpired(expYear: number, expMonth: number, now: Date): boolean {
  return expYear * 12 + expMonth < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}
