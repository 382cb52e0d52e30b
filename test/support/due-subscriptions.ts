import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { insertRowsReturningIds } from 'src/database/insert-row';
import { SubscriptionLine } from 'src/subscriptions/entities/subscription-line.entity';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';

const BATCH = 500;

/**
 * `count` copies of subscription `templateId` (its row and its live lines, same customer,
 * same next cycle), written in batched INSERTs: thousands of due subscriptions in seconds,
 * for fault tests and benchmarks. Returns the new package ids.
 */
export async function cloneSubscriptions(dataSource: DataSource, templateId: number, count: number): Promise<number[]> {
  const m = dataSource.manager;
  const { package_id: _id, ...template } = await m.findOneByOrFail(Subscription, { package_id: templateId });
  const lines = await m.findBy(SubscriptionLine, { package_id: templateId });
  const ids: number[] = [];
  for (let done = 0; done < count; done += BATCH) {
    const size = Math.min(BATCH, count - done);
    const rows = Array.from({ length: size }, () => ({
      ...template,
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
