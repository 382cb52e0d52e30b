import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Plugins, pluginMethod } from 'src/core/plugins/plugins';

/**
 * SPEC: customer/nightly goes to customers with activity (an active subscription, invoice,
 * transaction or quote) in the last 90 days; a customer without any is `inactive-activity`.
 */
export const ACTIVITY_DAYS = 90;

/**
 * A module's customer activity on or after a date, as a trusted SQL condition: true when
 * the customer whose id is the column `customerId` has some on or after `since` (trusted
 * SQL of an account date: a named parameter or a literal). Each module that owns such
 * objects marks a method `@CustomerActivitySource()`; activity is any of them.
 */
export type CustomerActivitySource = (customerId: string, since: string) => string;

export const CustomerActivitySource = pluginMethod<CustomerActivitySource, void>();

@Injectable()
export class CustomerActivity implements OnModuleInit {
  private readonly sources: CustomerActivitySource[] = [];

  constructor(private readonly plugins: Plugins) {}

  onModuleInit(): void {
    for (const source of this.plugins.methods(CustomerActivitySource)) this.addSource(source.handler);
  }

  addSource(source: CustomerActivitySource): void {
    this.sources.push(source);
  }

  /** The one activity condition: the nightly job's list and a read's status both use it. */
  activitySql(customerId: string, since: string): string {
    if (this.sources.length === 0) return '(1 = 0)';
    return `(${this.sources.map((source) => source(customerId, since)).join(' OR ')})`;
  }

  /** The ids of the customers with activity on or after `sinceDate`, in order. */
  async activeSince(manager: EntityManager, sinceDate: string): Promise<number[]> {
    return this.activeWhere(manager, sinceDate, 'c.deleted_datetime IS NULL', {});
  }

  /** Which of the customers `customerIds` (one or more) have activity on or after `sinceDate`. */
  async activeAmong(manager: EntityManager, customerIds: readonly number[], sinceDate: string): Promise<Set<number>> {
    return new Set(
      await this.activeWhere(manager, sinceDate, 'c.customer_id IN (:...customerIds)', {
        customerIds: [...customerIds],
      }),
    );
  }

  private async activeWhere(
    manager: EntityManager,
    sinceDate: string,
    where: string,
    params: Record<string, unknown>,
  ): Promise<number[]> {
    const rows = await manager
      .createQueryBuilder()
      .select('c.customer_id', 'customer_id')
      .from('customer', 'c')
      .where(where, params)
      .andWhere(this.activitySql('c.customer_id', ':sinceDate'), { sinceDate })
      .orderBy('c.customer_id', 'ASC')
      .getRawMany<{ customer_id: number | string }>();
    return rows.map((row) => Number(row.customer_id));
  }
}
