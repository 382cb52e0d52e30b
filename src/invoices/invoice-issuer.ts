import Decimal from 'decimal.js';
import { Injectable } from '@nestjs/common';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { randomToken } from 'src/core/refs/random-token';
import { RevisionService } from 'src/core/revisions/revision.service';
import { addDays } from 'src/core/time/account-date';
import { Customer } from 'src/customers/entities/customer.entity';
import { newRecordStamps } from 'src/core/context/record-stamps';
import { insertRows, insertRowsReturningIds, insertRuns } from 'src/database/insert-row';
import { Tx } from 'src/database/unit-of-work';
import { updateWhereIn } from 'src/database/update-where-in';
import { ReferenceService } from 'src/reference/reference.service';
import { InvoiceLine, LineOrigin } from './entities/invoice-line.entity';
import { InvoiceSchedule } from './entities/invoice-schedule.entity';
import { Invoice } from './entities/invoice.entity';
import { InvoiceEvents } from './invoice-events';
import { NOTHING_APPLIED } from './invoice-extensions';
import { invoiceFigures } from './invoice-figures';
import { LineSpec, PricingCatalog, priceInvoiceLines } from './invoice-line-pricer';
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
  lines: InvoiceDraftLine[];
  /**
   * Other invoice columns as given (refnumber, external_key, class, admin, paycycle,
   * addresses, custom fields). Class and admin default to the customer's; without any bill
   * (ship) address field the customer's bill (ship) address is used.
   */
  fields?: Partial<Invoice>;
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
  ) {}

  /**
   * `catalog`: pricing inputs loaded once for a batch (PricingInputsLoader.catalog); by
   * default loaded for this draft's items. Returns the new invoice id.
   */
  async issue(tx: Tx, ctx: RequestContext, draft: InvoiceDraft, catalog?: PricingCatalog): Promise<number> {
    return (await this.issueMany(tx, ctx, [draft], catalog))[0];
  }

  /**
   * Issues every draft, in a fixed number of statements however many there are (a billing
   * run's batch): multi-row INSERTs of the invoices (their ids: insertRowsReturningIds),
   * lines and schedules, one UPDATE for the refnumbers not given, the revisions at the end
   * of the transaction, and the drafts' invoice/insert events in order. Returns the ids in
   * the drafts' order. `catalog`: as for `issue`, by default loaded for all the drafts' items.
   */
  async issueMany(
    tx: Tx,
    ctx: RequestContext,
    drafts: readonly InvoiceDraft[],
    catalog?: PricingCatalog,
  ): Promise<number[]> {
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
      const { rows, sums } = priceInvoiceLines(
        draft.lines.map((line, i) => lineSpecOf(line, i)),
        [],
        inputs,
        0,
      );
      const dueDate = addDays(draft.date, this.reference.terms(draft.termsId)?.terms_days ?? 0);
      const facts = { total: sums.total, due_date: dueDate, void_datetime: null, in_collections: false };
      const status = invoiceFigures(facts, NOTHING_APPLIED, today).status;
      const fields = draft.fields ?? {};
      const invoice: QueryDeepPartialEntity<Invoice> = {
        ...fields,
        ...addressDefaults(fields, customer),
        customer_id: customer.customer_id,
        package_id: draft.packageId ?? null,
        date: draft.date,
        due_date: dueDate,
        currency_id: draft.currencyId,
        terms_id: draft.termsId,
        class_id: fields.class_id !== undefined ? fields.class_id : customer.class_id,
        admin_id: fields.admin_id !== undefined ? fields.admin_id : customer.admin_id,
        brand_id: customer.brand_id,
        paycycle: fields.paycycle ?? 'one',
        ...sums,
        invoice_status_str: status,
        ...newRecordStamps(ctx, now),
      };
      return { invoice, lines: rows, dueDate, total: sums.total, named: Boolean(fields.refnumber) };
    });

    const ids = new Array<number>(drafts.length);
    for (const run of insertRuns(built.map((b) => b.invoice))) {
      const runIds = await insertRowsReturningIds(m, Invoice, run.rows);
      run.at.forEach((at, i) => (ids[at] = runIds[i]));
    }
    // Refnumber = id where none was given: one UPDATE for all (nothing reads it before).
    const unnamed = ids.filter((_, i) => !built[i].named);
    await updateWhereIn(m, Invoice, 'invoice_id', unnamed, { refnumber: () => 'CAST(invoice_id AS CHAR)' });
    const lineRows = built.flatMap((b, i) => b.lines.map((row) => ({ ...row, invoice_id: ids[i] })));
    for (const run of insertRuns(lineRows)) await insertRows(m, InvoiceLine, run.rows);
    const schedules = built.map((b, i) => ({
      invoice_id: ids[i],
      token: randomToken(),
      paymethod: 'inv',
      due_date: b.dueDate,
      amount: b.total,
      write_datetime: now,
    }));
    for (const run of insertRuns(schedules)) await insertRows(m, InvoiceSchedule, run.rows);
    for (const id of ids) await this.revisions.record(tx, ctx, 'invoice', id, 'Invoice created');
    await this.events.recordMany(tx, ctx, ids, 'insert');
    return ids;
  }
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
    custom: line.custom ?? {},
    period: line.period,
    prorate: line.prorate,
    usage: line.usage,
    package_line_id: line.package_line_id,
  };
}

/** Without any address field of a kind on the invoice, it takes the customer's. */
function addressDefaults(fields: Partial<Invoice>, customer: Customer): Partial<Invoice> {
  const out: Record<string, string | null> = {};
  for (const prefix of ['bill', 'ship'] as const) {
    if (ADDRESS.some((part) => fields[`${prefix}_${part}`] !== undefined)) continue;
    for (const part of ADDRESS) out[`${prefix}_${part}`] = customer[`${prefix}_${part}`];
  }
  return out;
}
