import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { Brackets, EntityManager, In } from 'typeorm';
import { aggregateUsage, UsageOption, UsageType } from 'src/billing/usage/usage-aggregation';
import { MeteredLine, UsageSource } from 'src/subscriptions/subscription-usage';
import { UsageRecord } from './entities/usage-record.entity';

/**
 * Pushed usage as the source of a cycle's metered lines (marked for the subscriptions'
 * SubscriptionUsage): the records of each line whose `from_datetime` falls in its period,
 * combined by type and rounding (billing/usage/usage-aggregation.ts). One query per invoice.
 */
@Injectable()
export class PushedUsageSource {
  @UsageSource()
  async amounts(m: EntityManager, lines: readonly MeteredLine[]): Promise<Map<number, Decimal>> {
    const query = m
      .createQueryBuilder(UsageRecord, 'u')
      .where({ line_item_id: In(lines.map((l) => l.line.line_item_id)) })
      .andWhere(
        new Brackets((any) => {
          lines.forEach((l, i) =>
            any.orWhere(`(u.line_item_id = :line${i} AND u.from_datetime >= :from${i} AND u.from_datetime < :to${i})`, {
              [`line${i}`]: l.line.line_item_id,
              [`from${i}`]: l.period.from,
              [`to${i}`]: l.period.to,
            }),
          );
        }),
      );
    const records = await query.getMany();
    const amounts = new Map<number, Decimal>();
    for (const l of lines) {
      const own = records.filter((r) => r.line_item_id === l.line.line_item_id);
      amounts.set(
        l.line.line_item_id,
        aggregateUsage(
          own.map((r) => ({
            value: r.usage_value,
            type: r.type as UsageType,
            options: r.options === '' ? [] : (r.options.split(',') as UsageOption[]),
            receivedAt: r.write_datetime,
            sequence: r.usage_id,
          })),
        ),
      );
    }
    return amounts;
  }
}
