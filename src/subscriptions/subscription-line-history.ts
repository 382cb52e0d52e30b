import { LineHistory } from 'src/billing/cycles/line-billing';
import { SubscriptionLine } from './entities/subscription-line.entity';

/** What the cycle rules (billing/cycles/line-billing.ts) need to know of a stored line. */
export function lineHistory(l: SubscriptionLine): LineHistory {
  return {
    subscribed: l.subscribe_datetime,
    trialDays: l.trial_days,
    trialRecurs: l.trial_recurs,
    expireRecurs: l.expire_recurs,
    invoicesBilled: l.invoices_billed,
  };
}
