import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { Money, ZERO } from 'src/core/money/decimal';
import { addingOnConflict, locksRows, throughIndex } from 'src/database/dialect';
import { insertRows } from 'src/database/insert-row';
import { queryRows } from 'src/database/raw-query';
import { MrrChange } from './entities/mrr-change.entity';

/** The `mrr_month` rollup's figures (entities/mrr-month.entity.ts), whole cents and customers. */
export const MOVEMENT_COLUMNS = [
  'new_cents',
  'new_count',
  'expansion_cents',
  'contraction_cents',
  'churned_cents',
  'churned_count',
  'reactivation_cents',
  'reactivation_count',
] as const;
export type MovementColumn = (typeof MOVEMENT_COLUMNS)[number];
export type Movements = Record<MovementColumn, Decimal>;

/** Rows of one (currency, month) are spread over this many by customer id (see the entity). */
export const MRR_SHARDS = 16;

export type NewChange = Omit<MrrChange, 'mrr_change_id'>;

const blank = (): Movements => Object.fromEntries(MOVEMENT_COLUMNS.map((c) => [c, ZERO])) as Movements;

/**
 * What one customer's MRR did in each month it changed (one currency; DESIGN §6), from its
 * changes as (month, cents): its MRR at the month's end `e` is the sum of the changes up
 * to it, at its start `s` the end of the month before. From zero to above it is `new` the
 * first time and `reactivation` after; from above zero to zero or below, `churned`; any
 * other rise is `expansion`, any other fall `contraction`. So for every month
 * s + new + expansion + reactivation − contraction − churned = e.
 */
export function customerMovements(changes: ReadonlyArray<{ month: string; cents: Decimal }>): Map<string, Movements> {
  const byMonth = new Map<string, Decimal>();
  for (const c of changes) byMonth.set(c.month, (byMonth.get(c.month) ?? ZERO).plus(c.cents));
  const result = new Map<string, Movements>();
  let s = ZERO;
  let paidBefore = false;
  for (const month of [...byMonth.keys()].sort()) {
    const e = s.plus(byMonth.get(month)!);
    const m = blank();
    if (s.lte(0) && e.gt(0)) {
      const kind = paidBefore ? 'reactivation' : 'new';
      m[`${kind}_cents`] = e.minus(s);
      m[`${kind}_count`] = new Decimal(1);
    } else if (s.gt(0) && e.lte(0)) {
      m.churned_cents = s.minus(e);
      m.churned_count = new Decimal(1);
    } else if (e.gt(s)) m.expansion_cents = e.minus(s);
    else if (e.lt(s)) m.contraction_cents = s.minus(e);
    result.set(month, m);
    if (e.gt(0)) paidBefore = true;
    s = e;
  }
  return result;
}

/** Whole cents of a 2-decimal amount (SQLite returns the double nearest it). */
const centsOf = (amount: Decimal.Value): Decimal => new Money(amount).toDecimalPlaces(2).times(100);

/**
 * Writes MRR changes and brings `mrr_month` in step, in the caller's transaction: reads the
 * touched customers' earlier changes (on MySQL/MariaDB a locking read, so the latest
 * committed ones, and a second writer of the same customer waits for this one), and adds
 * to each month the difference the new rows make to those customers' movements. A change
 * dated before a customer's later ones (a sweep catching up) reclassifies the months after
 * it too, so every month stays what the whole history says.
 */
export async function writeChanges(m: EntityManager, rows: readonly NewChange[]): Promise<void> {
  if (rows.length === 0) return;
  const key = (currency: number, customer: number) => `${currency}|${customer}`;
  const touched = new Map<
    string,
    { currency: number; customer: number; before: Array<{ month: string; cents: Decimal }> }
  >();
  for (const r of rows)
    touched.set(key(r.currency_id, r.customer_id), { currency: r.currency_id, customer: r.customer_id, before: [] });
  const held = await queryRows<{ currency_id: number; customer_id: number; month: string; delta: string | number }>(
    m,
    `SELECT currency_id, customer_id, month, delta FROM mrr_change ${throughIndex(m, 'mrr_change', ['currency_id', 'customer_id', 'month', 'delta'])}
     WHERE currency_id IN (:...currencies) AND customer_id IN (:...customers)${locksRows(m) ? ' FOR UPDATE' : ''}`,
    {
      currencies: [...new Set(rows.map((r) => r.currency_id))],
      customers: [...new Set(rows.map((r) => r.customer_id))],
    },
  );
  for (const h of held)
    touched
      .get(key(Number(h.currency_id), Number(h.customer_id)))
      ?.before.push({ month: h.month, cents: centsOf(h.delta) });
  await insertRows(m, MrrChange, [...rows]);

  const added = new Map<string, Array<{ month: string; cents: Decimal }>>();
  for (const r of rows) {
    const k = key(r.currency_id, r.customer_id);
    added.set(k, [...(added.get(k) ?? []), { month: r.month, cents: centsOf(r.delta) }]);
  }
  const diffs = new Map<string, { currency: number; month: string; shard: number; adds: Movements }>();
  for (const [k, t] of touched) {
    const before = customerMovements(t.before);
    const after = customerMovements([...t.before, ...added.get(k)!]);
    for (const [month, now] of after) {
      const was = before.get(month) ?? blank();
      const shard = t.customer % MRR_SHARDS;
      const at = `${t.currency}|${month}|${shard}`;
      let diff = diffs.get(at);
      if (!diff) diffs.set(at, (diff = { currency: t.currency, month, shard, adds: blank() }));
      for (const c of MOVEMENT_COLUMNS) diff.adds[c] = diff.adds[c].plus(now[c]).minus(was[c]);
    }
  }
  const list = [...diffs.values()];
  const keys = ['currency_id', 'month', 'shard'];
  await m.query(
    `INSERT INTO mrr_month (${[...keys, ...MOVEMENT_COLUMNS].join(', ')}) VALUES ${list
      .map(() => `(${[...keys, ...MOVEMENT_COLUMNS].map(() => '?').join(', ')})`)
      .join(', ')} ${addingOnConflict(m, keys, [...MOVEMENT_COLUMNS])}`,
    list.flatMap((d) => [d.currency, d.month, d.shard, ...MOVEMENT_COLUMNS.map((c) => d.adds[c].toString())]),
  );
}
