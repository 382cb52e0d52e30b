import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Customer } from 'src/customers/entities/customer.entity';
import { insertRowsReturningIds } from 'src/database/insert-row';
import { SubscriptionLine } from 'src/subscriptions/entities/subscription-line.entity';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';

const BATCH = 500;

/**
 * `count` copies of subscription `templateId` (its row and its live lines, same next
 * cycle), written in batched INSERTs: thousands of due subscriptions in seconds, for fault
 * tests and benchmarks. Each copy has a customer of its own (a copy of the template's, as
 * real data has), so no customer's figures grow with the count. Returns the new package ids.
 */
export async function cloneSubscriptions(dataSource: DataSource, templateId: number, count: number): Promise<number[]> {
  const m = dataSource.manager;
  const { package_id: _id, ...template } = await m.findOneByOrFail(Subscription, { package_id: templateId });
  const { customer_id: _customer, ...customer } = await m.findOneByOrFail(Customer, {
    customer_id: template.customer_id,
  });
  const lines = await m.findBy(SubscriptionLine, { package_id: templateId });
  const ids: number[] = [];
  for (let done = 0; done < count; done += BATCH) {
    const size = Math.min(BATCH, count - done);
    const customerIds = await insertRowsReturningIds(
      m,
      Customer,
      Array.from({ length: size }, () => ({ ...customer, token: randomBytes(6).toString('hex'), external_key: null })),
    );
    const rows = customerIds.map((customer_id) => ({
      ...template,
      customer_id,
      token: randomBytes(6).toString('hex'),
      external_key: null,
    }));
    const packageIds = await insertRowsReturningIds(m, Subscription, rows);
    const lineRows = packageIds.flatMap((package_id) =>
      lines.map(({ line_item_id: _line, ...line }) => ({ ...line, package_id, external_key: null })),
    );
    if (lineRows.length) await insertRowsReturningIds(m, SubscriptionLine, lineRows);
    ids.push(...packageIds);
  }
  return ids;
}
