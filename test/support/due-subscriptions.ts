import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Customer } from 'src/customers/entities/customer.entity';
import { insertRowsReturningIds } from 'src/database/insert-row';
import { CreditCard } from 'src/paymethods/entities/credit-card.entity';
import { SubscriptionLine } from 'src/subscriptions/entities/subscription-line.entity';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';

// Rows per INSERT: a customer row binds about 80 values, and SQLite takes at most 32,766 in one statement.
const BATCH = 200;

/**
 * `count` copies of subscription `templateId` (its row and its live lines, same next
 * cycle), written in batched INSERTs: thousands of due subscriptions in seconds, for fault
 * tests and benchmarks. Each copy has a customer of its own (a copy of the template's, as
 * real data has), so no customer's figures grow with the count; a template paying by card
 * gives each copy a copy of that card, its customer's own. Returns the new package ids.
 */
export async function cloneSubscriptions(dataSource: DataSource, templateId: number, count: number): Promise<number[]> {
  const m = dataSource.manager;
  const { package_id: _id, ...template } = await m.findOneByOrFail(Subscription, { package_id: templateId });
  const { customer_id: _customer, ...customer } = await m.findOneByOrFail(Customer, {
    customer_id: template.customer_id,
  });
  const lines = await m.findBy(SubscriptionLine, { package_id: templateId });
  const card = template.creditcard_id
    ? await m.findOneByOrFail(CreditCard, { creditcard_id: template.creditcard_id })
    : null;
  const ids: number[] = [];
  for (let done = 0; done < count; done += BATCH) {
    const size = Math.min(BATCH, count - done);
    const customerIds = await insertRowsReturningIds(
      m,
      Customer,
      Array.from({ length: size }, () => ({ ...customer, token: randomBytes(6).toString('hex'), external_key: null })),
    );
    const cardIds = card ? await cloneCards(m, card, customerIds) : [];
    const rows = customerIds.map((customer_id, i) => ({
      ...template,
      customer_id,
      creditcard_id: card ? cardIds[i] : template.creditcard_id,
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

/** A copy of `card` for each customer (same brand, expiry and gateway token). */
function cloneCards(m: EntityManager, card: CreditCard, customerIds: number[]): Promise<number[]> {
  const { creditcard_id: _id, ...fields } = card;
  return insertRowsReturningIds(
    m,
    CreditCard,
    customerIds.map((customer_id) => ({
      ...fields,
      customer_id,
      token: randomBytes(6).toString('hex'),
      external_key: null,
    })),
  );
}
