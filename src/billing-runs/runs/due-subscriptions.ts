import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { plainReader, ReadClause } from 'src/database/entity-reader';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';

/**
 * Subscriptions that are not finished for good (on the subscription alias `a`): not
 * expired, and not cancelled before the cycle they would bill next (a future `cancel_date`
 * still bills the cycles before it).
 */
function billableSql(a: string): string {
  return [
    `${a}.next_invoice_datetime IS NOT NULL`,
    `${a}.package_status_str <> 'expired-expired'`,
    `(${a}.package_status_str NOT LIKE 'canceled-%' OR ${a}.cancel_datetime > ${a}.next_invoice_datetime)`,
  ].join(' AND ');
}

function billable(m: EntityManager): SelectQueryBuilder<Subscription> {
  return m.createQueryBuilder(Subscription, 'p').where(billableSql('p'));
}

/**
 * The candidates of a run as of `:asOf` (the SQL twin of `dueAction`), on the subscription
 * alias `a`: a cycle has started, and the subscription is neither held nor suspended then.
 */
function dueSql(a: string): string {
  return [
    billableSql(a),
    `${a}.next_invoice_datetime <= :asOf`,
    `(${a}.holduntil_datetime IS NULL OR ${a}.holduntil_datetime <= :asOf)`,
    `NOT (${a}.suspendfrom_datetime IS NOT NULL AND ${a}.suspendfrom_datetime <= :asOf AND (${a}.suspendto_datetime IS NULL OR ${a}.suspendto_datetime > :asOf))`,
  ].join(' AND ');
}

/** The candidates of a run as of `asOf`, to count or pick from (alias `p`). */
export function dueSubscriptions(m: EntityManager, asOf: Date): SelectQueryBuilder<Subscription> {
  return m.createQueryBuilder(Subscription, 'p').where(dueSql('p'), { asOf });
}

/**
 * The whole rows of the candidates as of `asOf` that also meet `where` (on the alias `e`),
 * read without the query builder's hydration: a run reads every due row this way.
 */
export function readDueSubscriptions(
  m: EntityManager,
  asOf: Date,
  clause: ReadClause & { where: string },
): Promise<Subscription[]> {
  return plainReader(m, Subscription).many(m, {
    ...clause,
    where: `${dueSql('e')} AND (${clause.where})`,
    params: { ...clause.params, asOf },
  });
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
