/**
 * The events of SPEC.md "Events" by context: what a hook may subscribe to. An event a
 * module records that is not listed here is still stored, but no hook can ask for it
 * until it is added (keep this table in step with the spec).
 */
export const WEBHOOK_EVENTS: Readonly<Record<string, readonly string[]>> = {
  customer: ['insert', 'update', 'join', 'super', 'delete', 'nightly', 'status'],
  user: ['insert', 'update', 'delete'],
  quote: ['insert', 'update', 'status', 'nightly', 'won', 'lost'],
  invoice: ['status', 'insert', 'void', 'nightly'],
  package: ['status', 'insert', 'update', 'generate', 'paycycle', 'paymethod', 'upgrade'],
};

/** Why an `event` value is not a subscription pattern, or null when it is one. */
export function eventPatternProblem(pattern: string): string | null {
  if (pattern === '*') return null;
  const [context, event, ...rest] = pattern.split('.');
  if (event === undefined || rest.length > 0) {
    return 'must be "<context>.<event>", "<context>.*" or "*"';
  }
  const events = Object.prototype.hasOwnProperty.call(WEBHOOK_EVENTS, context) ? WEBHOOK_EVENTS[context] : undefined;
  if (!events) return `has an unknown context "${context}" (known: ${Object.keys(WEBHOOK_EVENTS).join(', ')})`;
  if (event !== '*' && !events.includes(event)) {
    return `has an unknown event "${event}" for ${context} (known: ${events.join(', ')}, *)`;
  }
  return null;
}

/** The stored patterns that match one event: exact, its context's wildcard, and everything. */
export function patternsMatching(contextStr: string, event: string): string[] {
  return [`${contextStr}.${event}`, `${contextStr}.*`, '*'];
}
