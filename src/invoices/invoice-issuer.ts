import Decimal from 'decimal.js';
import { Injectable } from '@nestjs/common';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { randomToken } from 'src/core/refs/random-token';
import { RevisionService } from 'src/core/revisions/revision.service';
import { addDays } from 'src/core/time/account-date';
import { sumMoney, ZERO } from 'src/core/money/decimal';
import { Customer } from 'src/customers/entities/customer.entity';
import { newRecordStamps } from 'src/core/context/record-stamps';
import { insertRows, insertRowsReturningIds, insertRuns } from 'src/database/insert-row';
import { Tx } from 'src/database/unit-of-work';
import { updateWhereIn } from 'src/database/update-where-in';
import { LoadedTierset } from 'src/items/tierset-loader';
import { ReferenceService } from 'src/reference/reference.service';
import { InvoiceLine, LineOrigin } from './entities/invoice-line.entity';
import { InvoiceSchedule } from './entities/invoice-schedule.entity';
import { Invoice } from './entities/invoice.entity';
import { InvoiceEvents } from './invoice-events';
import { lockCustomers } from 'src/customers/customer-lock';
import { OpenDueDates } from './open-due-dates';
import { InvoiceExtensions, NOTHING_APPLIED } from './invoice-extensions';
import { invoiceFigures } from './invoice-figures';
import {
  assertNotNegative,
  InvoiceSums,
  LineRow,
  LineSpec,
  PricingCatalog,
  priceInvoiceLines,
  sumsOf,
} from './invoice-line-pricer';
import { InvoiceReader } from './invoice-reader';
import { PricingInputsLoader } from './pricing-inputs-loader';

const ADDRESS = ['addr1', 'addr2', 'addr3', 'city', 'state', 'postcode', 'country'] as const;

/** One line to bill. Amounts come from the item's current tierset unless `line_rate` is given. */
export interface InvoiceDraftLine {
  origin: LineOrigin;
  item_id: number;
  /** Where a problem with the line is reported in a 400 (default `line_items[i]`). */
  path?: string;
  line_quantity?: Decimal;
  /** Overrides the tierset's price (rate × quantity). */
  line_rate?: Decimal;
  /** The price to bill at instead of the item's current one (a subscription line's tierset). */
  tierset?: LoadedTierset;
  paycycle?: string;
  descrip?: string | null;
  custom?: Record<string, string | null>;
  /** The period the line covers: the cycle billed in advance, or the usage period in arrears. */
  period?: { from: Date; to: Date };
  /** `proration` lines: the fraction of the cycle (9 places, DESIGN §6; negative to credit). */
  prorate?: Decimal;
  /** `usage` lines: the usage counted over `period` (shown as `line_usage`). */
  usage?: Decimal;
  package_line_id?: number | null;
}

/** Everything an invoice is issued from. */
export interface InvoiceDraft {
  customer: Customer;
  /** The invoice date (account date, `YYYY-MM-DD`); due date = date + the terms' days. */
  date: string;
  termsId: number;
  currencyId: number;
  packageId?: number | null;
  /** The default schedule's payment method (DESIGN §6: the subscription's, else `inv`). */
  paymethod?: string;
  lines: InvoiceDraftLine[];
  /**
   * Other invoice columns as given (refnumber, external_key, class, admin, paycycle,
   * addresses, custom fields). Class and admin default to the customer's; without any bill
   * (ship) address field the customer's bill (ship) address is used.
   */
  fields?: Partial<Invoice>;
  /**
   * An invoice the server issues itself (DESIGN §6 "Credits": billing runs, subscription
   * actions, quote conversion): the customer's open credit is applied to it, oldest first;
   * when its credit lines outweigh its charges they leave it for a credit memo noting
   * `memo` (none is issued when it would hold only credit). Without it (POST /invoice) a
   * negative total is a 400 and credit is applied only by `pay {use_customer_balance}`.
   */
  credit?: { memo: string };
}

/**
 * Issues an invoice inside the caller's transaction: prices the lines, writes the invoice,
 * its lines, its default payment schedule, a revision and the invoice/insert event (whose
 * webhook deliveries are written in the same transaction). Nothing survives a rollback of
 * the caller's transaction. `POST /invoice`, subscriptions, quote conversion and billing
 * runs all issue through here.
 */
@Injectable()
export class InvoiceIssuer {
  constructor(
    private readonly clock: Clock,
    private readonly reference: ReferenceService,
    private readonly revisions: RevisionService,
    private readonly events: InvoiceEvents,
    private readonly reader: InvoiceReader,
    private readonly loader: PricingInputsLoader,
    private readonly extensions: InvoiceExtensions,
    private readonly openDueDates: OpenDueDates,
  ) {}

  /**
   * `catalog`: pricing inputs loaded once for a batch (PricingInputsLoader.catalog); by
   * default loaded for this draft's items. Returns the new invoice id.
   */
  async issue(tx: Tx, ctx: RequestContext, draft: InvoiceDraft, catalog?: PricingCatalog): Promise<number> {
    const [id] = await this.issueMany(tx, ctx, [draft], catalog);
    if (id === null) throw new Error('The draft held only credit: nothing was issued');
    return id;
  }

  /**
   * Issues every draft, in a fixed number of statements however many there are (a billing
   * run's batch): multi-row INSERTs of the invoices (their ids: insertRowsReturningIds),
   * lines and schedules, one UPDATE for the refnumbers not given, the revisions at the end
   * of the transaction, and the drafts' invoice/insert events in order. Returns the ids in
   * the drafts' order (null for a `credit` draft that held only credit, which became a
   * credit memo). `catalog`: as for `issue`, by default loaded for all the drafts' items.
   */
  async issueMany(
    tx: Tx,
    ctx: RequestContext,
    drafts: readonly InvoiceDraft[],
    catalog?: PricingCatalog,
  ): Promise<Array<number | null>> {
    if (drafts.length === 0) return [];
    const m = tx.manager;
    const loaded =
      catalog ??
      (await this.loader.catalog(
        m,
        drafts.flatMap((d) => d.lines.map((l) => l.item_id)),
      ));
    const now = this.clock.now();
    const today = this.reader.today();
    const built = drafts.map((draft) => {
      const { customer } = draft;
      const inputs = PricingInputsLoader.forInvoice(loaded, draft.currencyId, customer.no_taxes);
      const priced = priceInvoiceLines(
        draft.lines.map((line, i) => lineSpecOf(line, i)),
        [],
        inputs,
        0,
        { allowNegative: draft.credit !== undefined },
      );
      const { rows, sums, creditBack } = splitCredit(priced.rows, priced.sums);
      const dueDate = addDays(draft.date, this.reference.terms(draft.termsId)?.terms_days ?? 0);
      const facts = { total: sums.total, due_date: dueDate, void_datetime: null, in_collections: false };
      const status = invoiceFigures(facts, NOTHING_APPLIED, today).status;
      const fields = draft.fields ?? {};
      const invoice = invoiceRow(draft, fields, { dueDate, sums, status, stamps: newRecordStamps(ctx, now) });
      const paymethod = draft.paymethod ?? 'inv';
      const named = Boolean(fields.refnumber);
      return { invoice, lines: rows, dueDate, total: sums.total, named, paymethod, creditBack };
    });
    // A draft that held only credit issues no invoice, only its credit memo.
    const issuing = built.flatMap((b, i) => (b.lines.length || !drafts[i].credit ? [i] : []));
    const issued = await this.insertAll(
      tx,
      ctx,
      issuing.map((i) => built[i]),
    );
    const ids = drafts.map((): number | null => null);
    issuing.forEach((at, n) => (ids[at] = issued[n]));
    await this.credit(tx, ctx, drafts, built, ids);
    return ids;
  }

  /**
   * The credit side of server-issued drafts (DESIGN §6 "Credits"), after their invoices:
   * the credit memos of what they gave back, then the customer's open credit, oldest
   * first, on each invoice issued.
   */
  private async credit(
    tx: Tx,
    ctx: RequestContext,
    drafts: readonly InvoiceDraft[],
    built: ReadonlyArray<{ total: Decimal; creditBack: Decimal }>,
    ids: ReadonlyArray<number | null>,
  ): Promise<void> {
    const crediting = drafts.flatMap((d, i) => (d.credit ? [i] : []));
    if (crediting.length === 0) return;
    const handler = this.extensions.credit();
    const memos = crediting.flatMap((i) =>
      built[i].creditBack.gt(0)
        ? [{ customerId: drafts[i].customer.customer_id, amount: built[i].creditBack, memo: drafts[i].credit!.memo }]
        : [],
    );
    if (memos.length) await handler.recordMemos(tx, ctx, memos);
    const invoices = crediting.flatMap((i) => {
      const invoiceId = ids[i];
      return invoiceId === null
        ? []
        : [{ invoiceId, customerId: drafts[i].customer.customer_id, balance: built[i].total }];
    });
    await handler.applyOpenCredit(tx, ctx, invoices);
  }

  /** Writes the built invoices with their lines, schedules, revisions and invoice/insert events. */
  private async insertAll(
    tx: Tx,
    ctx: RequestContext,
    built: ReadonlyArray<{
      invoice: QueryDeepPartialEntity<Invoice>;
      lines: LineRow[];
      dueDate: string;
      total: Decimal;
      named: boolean;
      paymethod: string;
    }>,
  ): Promise<number[]> {
    if (built.length === 0) return [];
    const m = tx.manager;
    // The customers first (customer-lock.ts): their open_due_date is stored below, and a
    // payment holding a customer while it locks the customer's invoices must not wait on us.
    await lockCustomers(
      tx,
      built.map(({ invoice }) => invoice.customer_id as number),
    );
    const now = this.clock.now();
    const ids = new Array<number>(built.length);
    for (const run of insertRuns(built.map((b) => b.invoice))) {
      const runIds = await insertRowsReturningIds(m, Invoice, run.rows);
      run.at.forEach((at, i) => (ids[at] = runIds[i]));
    }
    // Refnumber = id where none was given: one UPDATE for all (nothing reads it before).
    const unnamed = ids.filter((_, i) => !built[i].named);
    await updateWhereIn(m, Invoice, 'invoice_id', unnamed, { refnumber: () => 'CAST(invoice_id AS CHAR)' });
    // The priced rows are this call's own: each takes its invoice's id in place, not in a copy.
    const lineRows = built.flatMap((b, i) => b.lines.map((row) => Object.assign(row, { invoice_id: ids[i] })));
    for (const run of insertRuns(lineRows)) await insertRows(m, InvoiceLine, run.rows);
    const schedules = built.map((b, i) => ({
      invoice_id: ids[i],
      token: randomToken(),
      paymethod: b.paymethod,
      due_date: b.dueDate,
      amount: b.total,
      write_datetime: now,
    }));
    for (const run of insertRuns(schedules)) await insertRows(m, InvoiceSchedule, run.rows);
    await this.openDueDates.refresh(
      tx,
      built.map(({ invoice }) => ({
        customer_id: invoice.customer_id as number,
        package_id: invoice.package_id as number | null,
      })),
    );
    for (const id of ids) await this.revisions.record(tx, ctx, 'invoice', id, 'Invoice created');
    await this.events.recordMany(tx, ctx, ids, 'insert');
    return ids;
  }
}

/**
 * A draft whose total is below zero (allowed only for server-issued drafts): its credit
 * lines (negative prorations) leave it, their amount with their tax to a credit memo
 * (`creditBack`), and it keeps its charges. Charges that are still below zero without them
 * (a fixed discount larger than the rest) are a 400 as on any invoice.
 */
function splitCredit(rows: LineRow[], sums: InvoiceSums): { rows: LineRow[]; sums: InvoiceSums; creditBack: Decimal } {
  if (!sums.total.isNegative()) return { rows, sums, creditBack: ZERO };
  const isCredit = (r: LineRow) => r.line_origin === 'proration' && r.line_total.isNegative();
  const kept = rows.filter((r) => !isCredit(r));
  const keptSums = sumsOf(kept);
  assertNotNegative(keptSums.total);
  const creditBack = sumMoney(rows.filter(isCredit).map((r) => r.line_total)).negated();
  return { rows: kept, sums: keptSums, creditBack };
}

/** A draft line as the pricer takes it (`index` names it in a 400 when it has no path). */
export function lineSpecOf(line: InvoiceDraftLine, index = 0): LineSpec {
  return {
    path: line.path ?? `line_items[${index}]`,
    origin: 'new',
    lineOrigin: line.origin,
    item_id: line.item_id,
    paycycle: line.paycycle,
    descrip: line.descrip,
    line_rate: line.line_rate,
    line_quantity: line.line_quantity,
    tierset: line.tierset,
    custom: line.custom ?? {},
    period: line.period,
    prorate: line.prorate,
    usage: line.usage,
    package_line_id: line.package_line_id,
  };
}

/** Every key of T, whatever its value. */
type Listed<T> = { [K in keyof T]: unknown };

/** What an invoice row takes beside its draft: computed once per draft by issueMany. */
interface RowFacts {
  dueDate: string;
  sums: InvoiceSums;
  status: string;
  stamps: ReturnType<typeof newRecordStamps>;
}

/**
 * The invoice row of a draft: its fields as given, overridden by the issued columns; without
 * any address field of a kind among the fields, the customer's address of that kind. One
 * object literal of a fixed shape and a copy of only the fields it does not name: a billing
 * run builds thousands, and spreading the whole field set into each (a megamorphic copy,
 * then some forty keyed stores) was the largest cost of issuing one.
 */
function invoiceRow(draft: InvoiceDraft, fields: Partial<Invoice>, facts: RowFacts): QueryDeepPartialEntity<Invoice> {
  const { customer } = draft;
  const { sums, stamps } = facts;
  // Without any bill (ship) field given, every bill (ship) column is the customer's; with
  // some, each is the field's (an unset one is left to the column default, as before).
  const bill: Partial<Invoice> = hasAddress(fields, 'bill') ? fields : customer;
  const ship: Partial<Invoice> = hasAddress(fields, 'ship') ? fields : customer;
  // Listed one by one, not spread (a spread per invoice cost a run's CPU); the type makes a
  // stamp or sum added later fail to compile here until it is listed.
  const row: Record<string, unknown> & Listed<RowFacts['stamps']> & Listed<InvoiceSums> = {
    customer_id: customer.customer_id,
    package_id: draft.packageId ?? null,
    date: draft.date,
    due_date: facts.dueDate,
    currency_id: draft.currencyId,
    terms_id: draft.termsId,
    class_id: fields.class_id !== undefined ? fields.class_id : customer.class_id,
    admin_id: fields.admin_id !== undefined ? fields.admin_id : customer.admin_id,
    brand_id: customer.brand_id,
    paycycle: fields.paycycle ?? 'one',
    subtotal: sums.subtotal,
    taxes: sums.taxes,
    total: sums.total,
    sum_base: sums.sum_base,
    sum_usage: sums.sum_usage,
    sum_onetime: sums.sum_onetime,
    invoice_status_str: facts.status,
    token: stamps.token,
    write_datetime: stamps.write_datetime,
    write_ipaddr: stamps.write_ipaddr,
    mod_datetime: stamps.mod_datetime,
    mod_ipaddr: stamps.mod_ipaddr,
    bill_addr1: bill.bill_addr1,
    bill_addr2: bill.bill_addr2,
    bill_addr3: bill.bill_addr3,
    bill_city: bill.bill_city,
    bill_state: bill.bill_state,
    bill_postcode: bill.bill_postcode,
    bill_country: bill.bill_country,
    ship_addr1: ship.ship_addr1,
    ship_addr2: ship.ship_addr2,
    ship_addr3: ship.ship_addr3,
    ship_city: ship.ship_city,
    ship_state: ship.ship_state,
    ship_postcode: ship.ship_postcode,
    ship_country: ship.ship_country,
  };
  const given = fields as Record<string, unknown>;
  for (const key of Object.keys(given)) if (!(key in row)) row[key] = given[key];
  return row as QueryDeepPartialEntity<Invoice>;
}

/** Whether any address field of a kind is given (then none of that kind is the customer's). */
function hasAddress(fields: Partial<Invoice>, prefix: 'bill' | 'ship'): boolean {
  return ADDRESS.some((part) => fields[`${prefix}_${part}`] !== undefined);
}
