import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { In, IsNull } from 'typeorm';
import { cycleAt, cycleNumber } from 'src/billing/cycles/cycle-calendar';
import { billsSetup, hasExpired, isInTrial } from 'src/billing/cycles/line-billing';
import { priceLine } from 'src/billing/pricing/line-pricing';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { accountDate } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { Tx } from 'src/database/unit-of-work';
import { InvoiceDraftLine, InvoiceIssuer } from 'src/invoices/invoice-issuer';
import { LoadedTierset, loadTiersetsById, priceSheetOf } from 'src/items/tierset-loader';
import { PendingProration } from './entities/pending-proration.entity';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { ProrationCharge } from './subscription-proration';

/**
 * Subscription invoices through InvoiceIssuer, in the caller's transaction: the cycle that
 * starts at `next_invoice_datetime` (action `invoice`), and prorations billed at once
 * (`subscribe_prorate_cycle: now`). Lines bill at their own tierset: flat prices as rate ×
 * quantity, other models as their computed amount.
 */
@Injectable()
export class SubscriptionInvoicing {
  constructor(
    private readonly issuer: InvoiceIssuer,
    private readonly clock: Clock,
    private readonly wire: WireFormat,
  ) {}

  /**
   * Bills the next cycle (DESIGN §6): recurring lines in advance, setup once, trial lines
   * free, pending prorations; then moves `next_invoice_datetime` on by one cycle, counts the
   * lines' invoices and expires those that reached `expire_recurs`. Returns the invoice id.
   */
  async issueNextCycle(tx: Tx, ctx: RequestContext, sub: Subscription, date?: string): Promise<number> {
    const m = tx.manager;
    if (sub.next_invoice_datetime === null) throw ApiError.badRequest('This subscription has nothing left to bill.');
    const zone = this.wire.timezone;
    const cycle = cycleAt(sub.start_datetime, sub.paycycle, sub.next_invoice_datetime, zone);
    const lines = (
      await m.find(SubscriptionLine, {
        where: { package_id: sub.package_id, cancel_datetime: IsNull(), expire_datetime: IsNull() },
        order: { line_item_id: 'ASC' },
      })
    ).filter((l) => !hasExpired(history(l)));
    const pending = await m.find(PendingProration, { where: { package_id: sub.package_id, invoice_id: IsNull() } });
    const prorated = await m.find(SubscriptionLine, {
      where: { line_item_id: In(pending.length ? pending.map((p) => p.package_line_id) : [0]) },
    });
    const tiersets = await loadTiersetsById(
      m,
      [...lines, ...prorated].flatMap((l) => (l.tierset_id === null ? [] : [l.tierset_id])),
    );
    const period = { from: cycle.start, to: cycle.end };
    const draftLines: InvoiceDraftLine[] = [];
    for (const l of lines) {
      const tierset = l.tierset_id === null ? undefined : tiersets.get(l.tierset_id);
      const origin = isInTrial(history(l), cycle.start) ? 'trial' : 'recurring';
      draftLines.push({ ...priced(l, tierset), origin, period, package_line_id: l.line_item_id, descrip: l.descrip });
      const setup = tierset?.tierset.setup;
      if (billsSetup(history(l)) && setup?.gt(0)) {
        draftLines.push({ origin: 'setup', item_id: l.item_id, line_rate: setup, package_line_id: l.line_item_id });
      }
    }
    const byId = new Map(prorated.map((l) => [l.line_item_id, l]));
    for (const p of pending) {
      const line = byId.get(p.package_line_id)!;
      draftLines.push(prorationLine(line, tiersets, p.line_prorate.times(p.amount.isNegative() ? -1 : 1)));
    }
    if (draftLines.length === 0) throw ApiError.badRequest('This subscription has no line to bill.');
    const invoiceId = await this.issue(tx, ctx, sub, draftLines, date);

    const next = cycleNumber(sub.start_datetime, sub.paycycle, cycle.index + 1, zone).start;
    await m.update(Subscription, sub.package_id, { next_invoice_datetime: next });
    for (const l of lines) {
      const billed = l.invoices_billed + 1;
      const expired = hasExpired({ ...history(l), invoicesBilled: billed });
      await m.update(SubscriptionLine, l.line_item_id, {
        invoices_billed: billed,
        ...(expired ? { expire_datetime: this.clock.now() } : {}),
      });
    }
    if (pending.length) {
      await m.update(
        PendingProration,
        { package_proration_id: In(pending.map((p) => p.package_proration_id)) },
        { invoice_id: invoiceId },
      );
    }
    return invoiceId;
  }

  /** Prorations billed at once, on an invoice of their own. */
  async issueProrations(tx: Tx, ctx: RequestContext, sub: Subscription, charges: ProrationCharge[]): Promise<number> {
    const tiersets = await loadTiersetsById(
      tx.manager,
      charges.flatMap((c) => (c.line.tierset_id === null ? [] : [c.line.tierset_id])),
    );
    const lines = charges.map((c) =>
      prorationLine(c.line, tiersets, c.amount.isNegative() ? c.fraction.negated() : c.fraction),
    );
    return this.issue(tx, ctx, sub, lines);
  }

  private async issue(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    lines: InvoiceDraftLine[],
    date?: string,
  ): Promise<number> {
    const customer = await tx.manager.findOneOrFail(Customer, { where: { customer_id: sub.customer_id } });
    return this.issuer.issue(tx, ctx, {
      customer,
      date: date ?? accountDate(this.clock.now(), this.wire.timezone),
      termsId: sub.terms_id,
      currencyId: sub.currency_id,
      packageId: sub.package_id,
      lines,
      fields: { paycycle: sub.paycycle, class_id: sub.class_id, admin_id: sub.admin_id },
    });
  }
}

function history(l: SubscriptionLine) {
  return {
    subscribed: l.subscribe_datetime,
    trialDays: l.trial_days,
    trialRecurs: l.trial_recurs,
    expireRecurs: l.expire_recurs,
    invoicesBilled: l.invoices_billed,
  };
}

/** A line at its own price: flat as rate × quantity, other models as their amount for one. */
function priced(l: SubscriptionLine, tierset: LoadedTierset | undefined): Omit<InvoiceDraftLine, 'origin'> {
  if (!tierset) return { item_id: l.item_id, line_quantity: l.line_quantity };
  if (tierset.tierset.pricemodel === 'fla') {
    return { item_id: l.item_id, line_rate: tierset.tierset.base, line_quantity: l.line_quantity };
  }
  const amount = priceLine(priceSheetOf(tierset), l.line_quantity).amount;
  return { item_id: l.item_id, line_rate: amount, line_quantity: new Decimal(1) };
}

function prorationLine(l: SubscriptionLine, tiersets: Map<number, LoadedTierset>, prorate: Decimal): InvoiceDraftLine {
  const tierset = l.tierset_id === null ? undefined : tiersets.get(l.tierset_id);
  return { ...priced(l, tierset), origin: 'proration', prorate, package_line_id: l.line_item_id, descrip: l.descrip };
}
