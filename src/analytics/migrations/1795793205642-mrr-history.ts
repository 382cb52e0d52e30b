import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTables, datetime, decimal, dropTables, generatedId, int, TableSpec, varchar } from 'src/database/migrations/schema-builders';

/**
 * The MRR history of revenue analytics (DESIGN §6 "Analytics"), and the history of the
 * subscriptions that exist already, built from what their rows hold: each moment a line
 * started, ended or left its trial, a suspension began or ended or a cancellation took
 * effect, up to now, at the line's own price (the tierset it bills at). A migration runs
 * once against the schema of its day, so it keeps its own copy of the MRR rule of that day
 * (billing/cycles/mrr-as-of.ts, billing/pricing) instead of importing code that moves on.
 */
export class MrrHistory1795793205642 implements MigrationInterface {
  name = 'MrrHistory1795793205642';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
    await backfill(queryRunner, new Date()); // stop-check: deliberate, a migration runs before any Clock exists
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  {
    name: 'mrr_change',
    columns: [
      generatedId('mrr_change_id'),
      int('package_id'),
      int('customer_id'),
      int('currency_id'),
      datetime('change_datetime'),
      varchar('month', 7),
      decimal('mrr', 18, 2),
      decimal('delta', 18, 2),
    ],
    indices: [{ columns: ['currency_id', 'month', 'customer_id'] }, { columns: ['package_id', 'change_datetime'] }],
  },
];

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
type Row = Record<string, unknown>;
const PAGE = 1000;
const MONTHS: Record<string, number> = {
  mon: 1,
  '2mn': 2,
  qtr: 3,
  six: 6,
  yrl: 12,
  '2yr': 24,
  '3yr': 36,
  '4yr': 48,
  '5yr': 60,
  '10y': 120,
};
const DAYS: Record<string, number> = { dly: 1, '1wk': 7, '2wk': 14, '4wk': 28, '8wk': 56, '12w': 84, '30d': 30 };

/** A column value as the driver returns it (text, number or Date) as text. */
const str = (v: unknown): string => (v instanceof Date ? v.toISOString() : `${v as string | number}`);
const time = (v: unknown): number | null =>
  v === null || v === undefined ? null : (v instanceof Date ? v : new Date(`${str(v).replace(' ', 'T')}Z`)).getTime();
const cents = (v: Decimal): Decimal => v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

interface Line {
  counts: boolean;
  discount: boolean;
  price: (others: Decimal) => Decimal;
  from: number;
  until: number[];
  trialEnd: number | null;
  freeByCount: boolean;
}

/** The price of `qty` on a tierset (fla, uni, vol, tie, pas; never below its minimum). */
function price(ts: Row, tiers: Row[], qty: Decimal): Decimal {
  const base = new D(str(ts.base));
  const holding = tiers.find((t) => qty.gte(str(t.unit_from)) && (t.unit_to === null || qty.lte(str(t.unit_to))));
  let exact: Decimal;
  if (ts.pricemodel === 'fla') exact = base.times(qty);
  else if (ts.pricemodel === 'pas') exact = qty;
  else if (ts.pricemodel === 'tie')
    exact = tiers.reduce((sum, t) => {
      const top = t.unit_to === null ? qty : D.min(qty, str(t.unit_to));
      const units = D.max(top.minus(str(t.unit_from)).plus(1), 0);
      return sum.plus(units.times(str(t.amount)));
    }, base);
  else exact = base.plus(qty.times(holding ? String(holding.amount) : 0));
  return D.max(cents(exact), str(ts.minimum));
}

function monthly(amount: Decimal, paycycle: string): Decimal {
  if (DAYS[paycycle]) return amount.times('30.4375').div(DAYS[paycycle]);
  if (paycycle === '116') return amount.times(2);
  return amount.div(MONTHS[paycycle] ?? 1);
}

function mrrAt(sub: Row, lines: Line[], at: number): Decimal {
  const cancelAt = String(sub.package_status_str).startsWith('canceled-') ? time(sub.cancel_datetime) : null;
  const [from, to] = [time(sub.suspendfrom_datetime), time(sub.suspendto_datetime)];
  if (time(sub.start_datetime)! > at || sub.package_status_str === 'expired-expired') return new D(0);
  if ((cancelAt !== null && cancelAt <= at) || (from !== null && from <= at && (to === null || to > at)))
    return new D(0);
  const live = lines.filter(
    (l) =>
      l.counts &&
      l.from <= at &&
      l.until.every((u) => u > at) &&
      !l.freeByCount &&
      !(l.trialEnd !== null && l.trialEnd > at),
  );
  const charges = live.filter((l) => !l.discount).reduce((s, l) => s.plus(l.price(new D(0))), new D(0));
  const all = live.filter((l) => l.discount).reduce((s, l) => s.plus(l.price(charges)), charges);
  return cents(monthly(all, String(sub.paycycle)));
}

/** Exported for its test: the history the migration builds for subscriptions that already exist. */
export async function backfill(q: QueryRunner, now: Date): Promise<void> {
  const zone = process.env.ACCOUNT_TIMEZONE || 'America/Chicago';
  const fmt = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  for (let after = 0; ;) {
    const subs = (await q.query(
      `SELECT package_id, customer_id, currency_id, paycycle, start_datetime, package_status_str, cancel_datetime,
              suspendfrom_datetime, suspendto_datetime FROM package WHERE package_id > ? ORDER BY package_id LIMIT ${PAGE}`,
      [after],
    )) as Row[];
    if (subs.length === 0) return;
    after = Number(subs[subs.length - 1].package_id);
    const ids = subs.map((s) => Number(s.package_id));
    const marks = ids.map(() => '?').join(',');
    const lines = (await q.query(
      `SELECT l.*, i.is_usage, i.item_type, t.base, t.minimum, t.percent, t.paycycle AS tierset_paycycle, t.pricemodel
       FROM package_line l JOIN item i ON i.item_id = l.item_id LEFT JOIN tierset t ON t.tierset_id = l.tierset_id
       WHERE l.package_id IN (${marks})`,
      ids,
    )) as Row[];
    const tiersetIds = [...new Set(lines.flatMap((l) => (l.tierset_id === null ? [] : [Number(l.tierset_id)])))];
    const tiers = tiersetIds.length
      ? ((await q.query(
          `SELECT * FROM tier WHERE tierset_id IN (${tiersetIds.map(() => '?').join(',')}) ORDER BY tier_id`,
          tiersetIds,
        )) as Row[])
      : [];
    const values: unknown[] = [];
    let count = 0;
    for (const sub of subs) {
      const own = lines
        .filter((l) => Number(l.package_id) === Number(sub.package_id))
        .map((l): Line => {
          const qty = new D(str(l.line_quantity));
          const sheet = tiers.filter((t) => Number(t.tierset_id) === Number(l.tierset_id));
          const discount = l.item_type === 'discount';
          const billed = Number(l.invoices_billed);
          return {
            counts: l.pricemodel !== null && !Number(l.is_usage) && l.tierset_paycycle !== 'one',
            discount,
            price: (others) =>
              discount
                ? new D(str(l.percent)).isZero()
                  ? cents(new D(str(l.base)).times(qty)).negated()
                  : cents(others.times(str(l.percent)).div(100)).negated()
                : price(l, sheet, qty),
            from: time(l.subscribe_datetime)!,
            until: [time(l.cancel_datetime), time(l.expire_datetime)].filter((u): u is number => u !== null),
            trialEnd: time(l.trial_end_datetime),
            freeByCount:
              (l.trial_recurs !== null && billed < Number(l.trial_recurs)) ||
              (Number(l.expire_recurs ?? 0) > 0 && billed >= Number(l.expire_recurs)),
          };
        });
      const moments = [sub.start_datetime, sub.suspendfrom_datetime, sub.suspendto_datetime, sub.cancel_datetime]
        .map(time)
        .concat(own.flatMap((l) => [l.from, l.trialEnd, ...l.until]))
        .filter((t): t is number => t !== null && t <= now.getTime());
      let mrr = new D(0);
      for (const at of [...new Set(moments)].sort((a, b) => a - b)) {
        const next = mrrAt(sub, own, at);
        if (next.eq(mrr)) continue;
        const month = DateTime.fromMillis(at, { zone }).toFormat('yyyy-MM');
        values.push(
          sub.package_id,
          sub.customer_id,
          sub.currency_id,
          fmt(at),
          month,
          next.toFixed(2), // stop-check: deliberate, decimal.js's toFixed
          next.minus(mrr).toFixed(2), // stop-check: deliberate, decimal.js's toFixed
        );
        count++;
        mrr = next;
      }
    }
    for (let i = 0; i < count; i += PAGE) {
      const part = values.slice(i * 7, (i + PAGE) * 7);
      await q.query(
        `INSERT INTO mrr_change (package_id, customer_id, currency_id, change_datetime, month, mrr, delta) VALUES ${Array.from(
          { length: part.length / 7 },
          () => '(?, ?, ?, ?, ?, ?, ?)',
        ).join(', ')}`,
        part,
      );
    }
  }
}
