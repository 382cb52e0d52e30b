import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { RATE_LIMIT } from 'src/core/money/decimal.transformer';
import { WireFormat } from 'src/core/wire/wire-format';
import { CustomersService } from 'src/customers/customers.service';
import { assertOutsideUnitOfWork, OutsideUnit } from 'src/database/outside-call-guard';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { SubscriptionReader } from 'src/subscriptions/subscription-reader';
import { MeteredLine, OutsideUsage } from 'src/subscriptions/subscription-usage';
import { postPinned } from 'src/webhooks/delivery/pinned-post';
import { SharedTokenService } from 'src/webhooks/delivery/shared-token.service';
import { HostResolver, systemResolver, TargetRefusedError, vetTarget } from 'src/webhooks/delivery/target-url-guard';

/** What USAGE_URL gave for a subscription's metered lines: every line's usage, or why not. */
export type UsagePullOutcome = { ok: true; amounts: Map<number, Decimal> } | { ok: false; reason: string };

/** Enough of a failed answer to say in the log what the receiver meant. */
const MAX_ANSWER_CHARS = 2048;

/**
 * Usage pulled from USAGE_URL at invoicing (SPEC "Usage URL (outbound request)", DESIGN §6
 * "Usage"): one POST per metered line, before the billing unit and never inside it (the
 * outside-call guard throws there), to the address the webhooks' target rules vetted.
 * Only a 200 with `{line_items: [{usage_amount}]}` and an amount that is a number >= 0
 * counts; the first line that fails fails the whole subscription for this run, so no
 * usage that could not be read is billed as zero.
 */
@Injectable()
@OutsideUsage()
export class UsagePull implements OutsideUsage {
  /** Replaceable in tests, to point names at chosen addresses. */
  resolver: HostResolver = systemResolver;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly wire: WireFormat,
    private readonly sharedToken: SharedTokenService,
    private readonly subscriptions: SubscriptionReader,
    private readonly customers: CustomersService,
  ) {}

  /**
   * With USAGE_URL set, subscription invoices take their usage from it (the `invoice`
   * action too); unset, pushed usage records are billed instead.
   */
  get configured(): boolean {
    return this.config.usageUrl !== undefined;
  }

  async pull(outside: OutsideUnit, sub: Subscription, lines: readonly MeteredLine[]): Promise<UsagePullOutcome> {
    assertOutsideUnitOfWork('usage URL request');
    const amounts = new Map<number, Decimal>();
    if (lines.length === 0 || this.config.usageUrl === undefined) return { ok: true, amounts };
    const m = this.dataSource.manager;
    const pkg = await this.subscriptions.full(m, sub.package_id);
    const customer = await this.customers.presentById(m, sub.customer_id);
    const token = await this.sharedToken.token();
    for (const metered of lines) {
      const id = metered.line.line_item_id;
      const line = pkg.line_items.find((l) => l.line_item_id === id);
      const body = JSON.stringify({
        customer,
        package: pkg,
        this_line_item: line ?? { line_item_id: id },
        from_datetime: this.periodText(metered.period.from),
        to_datetime: this.periodText(metered.period.to),
        security_token: token,
      });
      const amount = await this.ask(outside, this.config.usageUrl, body);
      if (typeof amount === 'string') return { ok: false, reason: `line ${id}: ${amount}` };
      amounts.set(id, amount);
    }
    return { ok: true, amounts };
  }

  /** The amount the receiver gave, or why it does not count. */
  private async ask(outside: OutsideUnit, url: string, body: string): Promise<Decimal | string> {
    try {
      const target = await vetTarget(url, { allowPrivate: this.config.webhookAllowPrivateTargets }, this.resolver);
      const answer = await postPinned(
        outside,
        target,
        body,
        { 'Content-Type': 'application/json', 'X-Service-Source': new URL(this.config.publicUrl).hostname },
        { timeoutMs: this.config.usageUrlTimeoutMs, maxBodyChars: MAX_ANSWER_CHARS },
      );
      if (answer.error !== null) return answer.error;
      if (answer.statusCode !== 200) return `answered ${answer.statusCode}: ${(answer.body ?? '').slice(0, 200)}`;
      return usageAmountOf(answer.body ?? '');
    } catch (error) {
      if (error instanceof TargetRefusedError) return `USAGE_URL refused: ${error.message}`;
      throw error;
    }
  }

  /** SPEC: `YYYY-MM-DD HH:II:SS`, in the account's zone as every rendered datetime. */
  private periodText(at: Date): string {
    return DateTime.fromJSDate(at, { zone: this.wire.timezone }).toFormat('yyyy-MM-dd HH:mm:ss');
  }
}

/** `{line_items: [{usage_amount: <number >= 0>}]}` read from a 200's body; else what is wrong with it. */
export function usageAmountOf(text: string): Decimal | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'answered 200 without valid JSON';
  }
  const items = (parsed as { line_items?: unknown } | null)?.line_items;
  if (!Array.isArray(items) || items.length === 0) return 'answered 200 without a non-empty "line_items" array';
  const raw = (items[0] as { usage_amount?: unknown } | null)?.usage_amount;
  const numeric =
    (typeof raw === 'number' && Number.isFinite(raw)) ||
    (typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim()));
  if (!numeric) return 'answered 200 without a numeric "line_items[0].usage_amount"';
  const amount = new Decimal(String(raw).trim());
  if (amount.isNegative()) return `answered a negative usage amount (${amount.toString()})`;
  if (amount.gt(RATE_LIMIT)) return `answered a usage amount above ${RATE_LIMIT.toString()}`;
  return amount.toDecimalPlaces(6, Decimal.ROUND_HALF_UP);
}
