import { Injectable } from '@nestjs/common';
import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { Customer } from 'src/customers/entities/customer.entity';
import { queryRows } from 'src/database/raw-query';
import { Item } from 'src/items/entities/item.entity';
import { SubscriptionLine } from 'src/subscriptions/entities/subscription-line.entity';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { UsageSelector } from './usage-record-input';

/** The metered line a usage record lands on. */
export interface UsageTarget {
  line_item_id: number;
  package_id: number;
  customer_id: number;
}

interface LineRow extends UsageTarget {
  is_usage: boolean | number;
  line_external_key: string | null;
  item_external_key: string | null;
  customer_external_key: string | null;
  live: boolean | number;
}

/**
 * Resolves SPEC's selectors to metered subscription lines, for one record or a batch of a
 * thousand, in at most four queries (one per selector kind used). A selector that names
 * no metered line, or more than one, is a 400 message for that record.
 */
@Injectable()
export class UsageTargetResolver {
  /**
   * `now`: the request's time. A line takes usage until it (or its subscription) has
   * actually ended: a cancellation or line removal dated later leaves it live until then,
   * so usage pushed before a future `cancel_date` lands on the final invoice (DESIGN §6).
   */
  async resolve(m: EntityManager, selectors: UsageSelector[], now: Date): Promise<Array<UsageTarget | string>> {
    const of = <K extends UsageSelector['kind']>(kind: K) =>
      selectors.filter((s): s is Extract<UsageSelector, { kind: K }> => s.kind === kind);
    const lineIds = unique(of('line').map((s) => s.lineItemId));
    const lineKeys = unique(of('lineKey').map((s) => s.externalKey));
    const packageIds = unique(of('package').map((s) => s.packageId));
    const customerItems = of('customerItem');
    const [byId, byKey, byPackage, byCustomer] = await Promise.all([
      lineIds.length ? this.lines(m, 'pl.line_item_id IN (:...lineIds)', { lineIds, now }) : [],
      lineKeys.length ? this.lines(m, 'pl.external_key IN (:...lineKeys)', { lineKeys, now }) : [],
      packageIds.length
        ? this.lines(m, 'pl.package_id IN (:...packageIds) AND i.is_usage = :yes', { packageIds, yes: true, now })
        : [],
      customerItems.length
        ? this.lines(
            m,
            'c.external_key IN (:...customerKeys) AND i.external_key IN (:...itemKeys)',
            {
              customerKeys: unique(customerItems.map((s) => s.customerKey)),
              itemKeys: unique(customerItems.map((s) => s.itemKey)),
              now,
            },
            { withCustomer: true },
          )
        : [],
    ]);
    // By id: a bulk of a thousand records on as many lines must not scan every row per record.
    const lineById = new Map(byId.map((r) => [Number(r.line_item_id), r]));
    return selectors.map((s) => {
      switch (s.kind) {
        case 'line':
          return pickLine(
            lineById.has(s.lineItemId) ? [lineById.get(s.lineItemId) as LineRow] : [],
            `Field "line_item_id": no subscription line with id ${s.lineItemId} exists.`,
          );
        case 'lineKey':
          return pickLine(
            byKey.filter((r) => sameKey(r.line_external_key, s.externalKey)),
            `Field "line_item_external_key": no subscription line with external key "${s.externalKey}" exists.`,
          );
        case 'package':
          return pickOne(
            byPackage.filter((r) => Number(r.package_id) === s.packageId && truthy(r.live)),
            `Field "package_id": subscription ${s.packageId} has no metered line.`,
            (n) =>
              `Field "package_id": subscription ${s.packageId} has ${n} metered lines; name one by "line_item_id".`,
          );
        case 'customerItem':
          return this.pickCustomerItem(byCustomer, s);
      }
    });
  }

  private pickCustomerItem(rows: LineRow[], s: Extract<UsageSelector, { kind: 'customerItem' }>): UsageTarget | string {
    const lines = rows.filter(
      (r) =>
        sameKey(r.customer_external_key, s.customerKey) && sameKey(r.item_external_key, s.itemKey) && truthy(r.live),
    );
    const subscriptions = unique(lines.map((r) => Number(r.package_id)));
    const where = `customer "${s.customerKey}" with item "${s.itemKey}"`;
    if (subscriptions.length > 1) {
      return `Fields "customer.external_key" and "line_item.item_external_key": ${subscriptions.length} subscriptions of ${where} match; name the line by "line_item_id".`;
    }
    return pickOne(
      lines,
      `Fields "customer.external_key" and "line_item.item_external_key": no active subscription line of ${where} exists.`,
      (n) =>
        `Fields "customer.external_key" and "line_item.item_external_key": the subscription has ${n} lines of ${where}; name one by "line_item_id".`,
    );
  }

  /**
   * Subscription lines with their subscription's customer and whether they can take usage
   * (as of `params.now`), as raw SQL (a prepared statement, cached by its text): building the query with
   * TypeORM's builder cost more than running it, on every single POST. `withCustomer`
   * joins the customer, as `c`, for its external key.
   */
  private lines(
    m: EntityManager,
    where: string,
    params: ObjectLiteral,
    { withCustomer } = { withCustomer: false },
  ): Promise<LineRow[]> {
    const table = (entity: EntityTarget<ObjectLiteral>) =>
      m.connection.driver.escape(m.connection.getMetadata(entity).tableName);
    return queryRows<LineRow>(
      m,
      `SELECT pl.line_item_id AS line_item_id, pl.package_id AS package_id, p.customer_id AS customer_id, ` +
        `i.is_usage AS is_usage, pl.external_key AS line_external_key, i.external_key AS item_external_key, ` +
        `CASE WHEN (pl.cancel_datetime IS NULL OR pl.cancel_datetime > :now) ` +
        `AND NOT (p.package_status_str LIKE 'canceled-%' AND (p.cancel_datetime IS NULL OR p.cancel_datetime <= :now)) ` +
        `AND p.package_status_str <> 'expired-expired' THEN 1 ELSE 0 END AS live` +
        (withCustomer ? ', c.external_key AS customer_external_key' : '') +
        ` FROM ${table(SubscriptionLine)} pl` +
        ` INNER JOIN ${table(Subscription)} p ON p.package_id = pl.package_id` +
        ` INNER JOIN ${table(Item)} i ON i.item_id = pl.item_id` +
        (withCustomer ? ` INNER JOIN ${table(Customer)} c ON c.customer_id = p.customer_id` : '') +
        ` WHERE ${where}`,
      params,
    );
  }
}

/** A line named directly: it must exist and be metered. */
function pickLine(rows: LineRow[], missing: string): UsageTarget | string {
  const [row] = rows;
  if (!row) return missing;
  if (!truthy(row.is_usage)) return `Subscription line ${row.line_item_id} is not a metered (usage) line.`;
  if (rows.length > 1) return `${rows.length} subscription lines match; name one by "line_item_id".`;
  return target(row);
}

function pickOne(rows: LineRow[], none: string, many: (n: number) => string): UsageTarget | string {
  if (rows.length === 0) return none;
  if (rows.length > 1) return many(rows.length);
  if (!truthy(rows[0].is_usage)) return `Subscription line ${rows[0].line_item_id} is not a metered (usage) line.`;
  return target(rows[0]);
}

function target(row: LineRow): UsageTarget {
  return {
    line_item_id: Number(row.line_item_id),
    package_id: Number(row.package_id),
    customer_id: Number(row.customer_id),
  };
}

/** External keys compare as the database does (MariaDB's collation ignores case). */
function sameKey(a: string | null, b: string): boolean {
  return a !== null && a.toLowerCase() === b.toLowerCase();
}

function truthy(value: boolean | number | string): boolean {
  return value === true || Number(value) === 1;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
