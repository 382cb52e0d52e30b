import Decimal from 'decimal.js';
import {
  LinePrice,
  lineTax,
  priceAtRate,
  priceDiscount,
  priceLine,
  priceProrated,
  priceSetup,
} from 'src/billing/pricing/line-pricing';
import { ApiError } from 'src/core/envelope/api-error';
import { sumMoney, ZERO } from 'src/core/money/decimal';
import { AMOUNT_LIMIT, RATE_LIMIT } from 'src/core/money/decimal.transformer';
import { formatAmount } from 'src/core/money/money-format';
import { Item } from 'src/items/entities/item.entity';
import { LoadedTierset, priceSheetOf, tiersetForCurrency } from 'src/items/tierset-loader';
import { GroupTax } from 'src/taxes/taxes.service';
import { InvoiceLine, LineOrigin } from './entities/invoice-line.entity';

/** A line to price: from the client (`input`) or merged onto an existing line on update. */
export interface LineSpec {
  path: string;
  /**
   * `new`: first billed on this invoice, so it bills its tierset's setup; `existing`: a
   * line repriced on update; `setup`: an existing setup line, priced at its own rate.
   */
  origin: 'new' | 'existing' | 'setup';
  /** The tierset a `setup` line came from. */
  tierset_id?: number | null;
  /**
   * The price the line bills at when not the item's current one in the invoice's currency
   * (a subscription line's own tierset); priced the same way either way.
   */
  tierset?: LoadedTierset;
  item_id: number;
  paycycle?: string;
  descrip?: string | null;
  line_rate?: Decimal;
  line_quantity?: Decimal;
  custom: Record<string, string | null>;
  /**
   * What the line bills (default `manual`): only a manual line brings its tierset's setup
   * line along; `setup` is priced at the setup fee, `trial` is free, `proration` is
   * charged price × `prorate`, `usage` covers `period` in arrears.
   */
  lineOrigin?: LineOrigin;
  /** The period the line covers. */
  period?: { from: Date; to: Date };
  /** The proration fraction of a `proration` line (9 places; negative for a credit). */
  prorate?: Decimal;
  /** The usage a `usage` line bills (its `line_usage`). */
  usage?: Decimal;
  package_line_id?: number | null;
}

/** Items, their current tiersets and tax groups: loadable once for many invoices. */
export interface PricingCatalog {
  items: Map<number, Item>;
  tiersets: Map<number, LoadedTierset[]>;
  groupTaxes: Map<number, GroupTax>;
}

/** What pricing needs to know beyond the lines. */
export interface PricingInputs extends PricingCatalog {
  currencyId: number;
  noTaxes: boolean;
}

export type LineRow = Omit<InvoiceLine, 'line_item_id' | 'invoice_id'>;

/** The stored sums of an invoice. */
export interface InvoiceSums {
  subtotal: Decimal;
  taxes: Decimal;
  total: Decimal;
  sum_base: Decimal;
  sum_usage: Decimal;
  sum_onetime: Decimal;
}

type Draft = {
  spec: LineSpec;
  item: Item;
  tiersetId: number | null;
  tierset?: LoadedTierset;
  price?: LinePrice;
  /** The setup line generated for a new line (its own descrip, no custom fields). */
  setup: boolean;
};

/**
 * Prices new invoice lines through the pricing module (the only place amounts are
 * computed) and taxes each line. `kept` lines (unchanged on update) count toward
 * percent discounts and the sums, but are not repriced.
 */
export function priceInvoiceLines(
  specs: LineSpec[],
  kept: InvoiceLine[],
  inputs: PricingInputs,
  firstSortOrder: number,
  options: { allowNegative?: boolean } = {},
): { rows: LineRow[]; sums: InvoiceSums } {
  const drafts: Draft[] = [];
  for (const spec of specs) {
    const item = inputs.items.get(spec.item_id);
    if (!item) throw ApiError.badRequest(`Field "${spec.path}.item_id": no item with id ${spec.item_id} exists.`);
    if (spec.origin === 'setup') {
      // Setup is billed once: the line keeps its setup rate, never the tierset's base.
      const price = priceAtRate(spec.line_rate!, spec.line_quantity ?? new Decimal(1));
      drafts.push({ spec, item, tiersetId: spec.tierset_id ?? null, price, setup: false });
      continue;
    }
    const tierset = spec.tierset ?? tiersetForCurrency(inputs.tiersets.get(item.item_id) ?? [], inputs.currencyId);
    if (spec.lineOrigin === 'setup') {
      drafts.push(setupDraft(spec, item, tierset));
      continue;
    }
    if (spec.line_rate === undefined && !tierset) {
      throw ApiError.badRequest(`Field "${spec.path}.line_rate": item ${item.item_id} has no price; send a line_rate.`);
    }
    const quantity = spec.line_quantity ?? new Decimal(1);
    const priced = spec.line_rate === undefined ? tierset : undefined;
    const draft: Draft = { spec, item, tiersetId: priced?.tierset.tierset_id ?? null, tierset: priced, setup: false };
    if (item.item_type !== 'discount') {
      draft.price =
        spec.line_rate !== undefined
          ? priceAtRate(spec.line_rate, quantity)
          : priceLine(priceSheetOf(tierset!), quantity);
      draft.price = byOrigin(draft.price, spec);
    }
    drafts.push(draft);
    // A tierset's setup is billed once, as its own line, on the line's first invoice.
    const setup = draft.tierset?.tierset.setup;
    const manual = (spec.lineOrigin ?? 'manual') === 'manual';
    if (spec.origin === 'new' && manual && setup?.gt(0) && item.item_type !== 'discount') {
      drafts.push({ spec, item, tiersetId: draft.tiersetId, price: priceSetup(setup), setup: true });
    }
  }

  // Kept lines are known only by their amounts: the negative ones are the discounts.
  const nonDiscount = sumMoney([
    ...kept.filter((l) => !l.line_subtotal.isNegative()).map((l) => l.line_subtotal),
    ...drafts.filter((d) => d.price).map((d) => d.price!.amount),
  ]);
  for (const draft of drafts.filter((d) => !d.price)) {
    const quantity = draft.spec.line_quantity ?? new Decimal(1);
    draft.price = byOrigin(
      draft.spec.line_rate !== undefined
        ? { amount: priceAtRate(draft.spec.line_rate, quantity).amount.negated(), rate: draft.spec.line_rate }
        : priceDiscount(priceSheetOf(draft.tierset!), quantity, nonDiscount),
      draft.spec,
    );
  }

  const rows = drafts.map((draft, i) => lineRow(draft, inputs, firstSortOrder + i));
  rows.forEach((row, i) => assertLineFits(row, drafts[i].spec.path));
  const sums = sumsOf([...kept, ...rows]);
  const { subtotal, taxes, total, sum_base, sum_usage, sum_onetime } = sums;
  if ([subtotal, taxes, total, sum_base, sum_usage, sum_onetime].some((sum) => sum.abs().gt(AMOUNT_LIMIT))) {
    throw ApiError.badRequest(`Field "line_items": the invoice total would exceed ${AMOUNT_LIMIT.toString()}.`);
  }
  // A negative invoice would read as paid and lower the customer's balance; a caller that
  // turns the credit into a credit memo (InvoiceIssuer, server-issued drafts) takes it as is.
  if (!options.allowNegative) assertNotNegative(total);
  return { rows, sums };
}

/** The 400 of an invoice whose total would be below zero (DESIGN §6 "Invoices"). */
export function assertNotNegative(total: Decimal): void {
  if (total.isNegative()) {
    throw ApiError.badRequest(
      `Field "line_items": the invoice total would be ${formatAmount('', total).trim()}; it cannot be less than 0.`,
    );
  }
}

/** A subscription's setup line: its own `line_rate`, else its tierset's setup fee. */
function setupDraft(spec: LineSpec, item: Item, tierset: LoadedTierset | undefined): Draft {
  const quantity = spec.line_quantity ?? new Decimal(1);
  if (spec.line_rate !== undefined) {
    return { spec, item, tiersetId: null, price: priceAtRate(spec.line_rate, quantity), setup: false };
  }
  if (!tierset) {
    throw ApiError.badRequest(`Field "${spec.path}.line_rate": item ${item.item_id} has no price; send a line_rate.`);
  }
  const price = priceSetup(tierset.tierset.setup);
  return { spec, item, tiersetId: tierset.tierset.tierset_id, price, setup: false };
}

/** A trial line is free; a proration line is charged its fraction of the price. */
function byOrigin(price: LinePrice, spec: LineSpec): LinePrice {
  if (spec.lineOrigin === 'trial') return { amount: ZERO, rate: price.rate };
  if (spec.lineOrigin === 'proration') return priceProrated(price, spec.prorate ?? new Decimal(1));
  return price;
}

/** A 400 naming the line when its amounts or rate are too large for their columns. */
function assertLineFits(row: LineRow, path: string): void {
  if ([row.line_subtotal, row.line_total].some((amount) => amount.abs().gt(AMOUNT_LIMIT))) {
    throw ApiError.badRequest(`Field "${path}": the line amount would exceed ${AMOUNT_LIMIT.toString()}.`);
  }
  if (row.line_rate.abs().gt(RATE_LIMIT)) {
    throw ApiError.badRequest(`Field "${path}": the line rate would exceed ${RATE_LIMIT.toString()}.`);
  }
}

const NO_CUSTOM: Record<string, string | null> = {};

function lineRow(draft: Draft, inputs: PricingInputs, sortOrder: number): LineRow {
  const { spec, item, setup } = draft;
  const price = draft.price!;
  const origin: LineOrigin = setup ? 'setup' : (spec.lineOrigin ?? 'manual');
  const group = item.tax_group_id === null ? undefined : inputs.groupTaxes.get(item.tax_group_id);
  const taxed = group !== undefined && !inputs.noTaxes;
  const tax = taxed ? lineTax(price.amount, group.tax_rate) : ZERO;
  // Spelt out, not built by a loop of `custom_${n}` keys and spread: one object of a fixed
  // shape per line (a billing run prices every line of every cycle here).
  const custom = setup ? NO_CUSTOM : spec.custom;
  return {
    custom_1: custom.custom_1 ?? null,
    custom_2: custom.custom_2 ?? null,
    custom_3: custom.custom_3 ?? null,
    custom_4: custom.custom_4 ?? null,
    custom_5: custom.custom_5 ?? null,
    custom_6: custom.custom_6 ?? null,
    custom_7: custom.custom_7 ?? null,
    custom_8: custom.custom_8 ?? null,
    custom_9: custom.custom_9 ?? null,
    custom_10: custom.custom_10 ?? null,
    item_id: item.item_id,
    tierset_id: draft.tiersetId,
    package_line_id: spec.package_line_id ?? null,
    admin_id: null,
    sort_order: sortOrder,
    descrip: setup
      ? `Setup: ${item.name}`
      : (spec.descrip ??
        (origin === 'setup' && spec.origin === 'new' ? `Setup: ${item.name}` : null) ??
        item.description ??
        null),
    paycycle: setup ? 'one' : (spec.paycycle ?? 'one'),
    line_rate: price.rate,
    line_quantity: setup ? new Decimal(1) : (spec.line_quantity ?? new Decimal(1)),
    line_usage: origin === 'usage' ? (spec.usage ?? ZERO) : ZERO,
    line_prorate: origin === 'proration' ? (spec.prorate ?? null) : null,
    line_subtotal: price.amount,
    line_total: price.amount.plus(tax),
    tax_taxable: taxed ? price.amount : ZERO,
    // Tax included in the price: none, prices are always before tax here.
    tax_taxed: ZERO,
    tax_total: tax,
    tax_id: taxed ? group.tax_id : null,
    tax_group_id: taxed ? group.tax_group_id : null,
    usage_from: origin === 'usage' ? (spec.period?.from ?? null) : null,
    usage_to: origin === 'usage' ? (spec.period?.to ?? null) : null,
    is_base: false,
    is_setup: setup || spec.origin === 'setup' || origin === 'setup',
    is_usage: origin === 'usage',
    is_free: origin === 'trial',
    is_recurring: origin === 'recurring' || origin === 'proration' || origin === 'trial',
    is_taxed: taxed,
    is_latefee: false,
    is_obligation: false,
    line_origin: origin,
    period_from: setup ? null : (spec.period?.from ?? null),
    period_to: setup ? null : (spec.period?.to ?? null),
  };
}

/** Invoice sums: sums of the rounded line amounts (DESIGN §5). */
export function sumsOf(
  lines: Array<Pick<InvoiceLine, 'line_subtotal' | 'tax_total' | 'is_base' | 'is_usage'>>,
): InvoiceSums {
  const subtotal = sumMoney(lines.map((l) => l.line_subtotal));
  const taxes = sumMoney(lines.map((l) => l.tax_total));
  return {
    subtotal,
    taxes,
    total: subtotal.plus(taxes),
    sum_base: sumMoney(lines.filter((l) => l.is_base).map((l) => l.line_subtotal)),
    sum_usage: sumMoney(lines.filter((l) => l.is_usage).map((l) => l.line_subtotal)),
    sum_onetime: sumMoney(lines.filter((l) => !l.is_base && !l.is_usage).map((l) => l.line_subtotal)),
  };
}
