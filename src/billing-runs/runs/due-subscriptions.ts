import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';

/**
 * Subscriptions that are not finished for good: not expired, and not cancelled before the
 * cycle they would bill next (a future `cancel_date` still bills the cycles before it).
 */
function billable(m: EntityManager): SelectQueryBuilder<Subscription> {
  return m
    .createQueryBuilder(Subscription, 'p')
    .where('p.next_invoice_datetime IS NOT NULL')
    .andWhere("p.package_status_str <> 'expired-expired'")
    .andWhere("(p.package_status_str NOT LIKE 'canceled-%' OR p.cancel_datetime > p.next_invoice_datetime)");
}

/**
 * The candidates of a run as of `asOf` (the SQL twin of `dueAction`): a cycle has started,
 * and the subscription is neither held nor suspended as of `asOf`.
 */
export function dueSubscriptions(m: EntityManager, asOf: Date): SelectQueryBuilder<Subscription> {
  return billable(m)
    .andWhere('p.next_invoice_datetime <= :asOf', { asOf })
    .andWhere('(p.holduntil_datetime IS NULL OR p.holduntil_datetime <= :asOf)', { asOf })
    .andWhere(
      'NOT (p.suspendfrom_datetime IS NOT NULL AND p.suspendfrom_datetime <= :asOf AND (p.suspendto_datetime IS NULL OR p.suspendto_datetime > :asOf))',
      { asOf },
    );
}

/** The next cycle start after `after` of any subscription still billing (the test clock's next step). */
export async function nextCycleStartAfter(m: EntityManager, after: Date): Promise<Date | null> {
  const first = await billable(m)
    .select(['p.package_id', 'p.next_invoice_datetime'])
    .andWhere('p.next_invoice_datetime > :after', { after })
    .orderBy('p.next_invoice_datetime', 'ASC')
    .limit(1)
    .getOne();
  return first?.next_invoice_datetime ?? null;
}
