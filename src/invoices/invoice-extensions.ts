import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { ZERO } from 'src/core/money/decimal';
import { pluginClass, pluginMethod, Plugins } from 'src/core/plugins/plugins';
import { FieldMap } from 'src/core/query/field-map';
import { InvoiceCreditHandler } from './invoice-credit';

/** Money applied to one invoice by transactions (SPEC "Invoice": payments, credits, refunds...). */
export interface InvoiceApplied {
  /** Successful payments applied (positive). */
  payments: Decimal;
  /** Credit memos applied (positive). */
  credits: Decimal;
  /** Refunds of payments applied to the invoice, as a positive amount (they raise the balance). */
  refunds: Decimal;
  writeoffs: Decimal;
  /** Failed payment attempts. */
  declines: number;
  /** `YYYY-MM-DD` on which the balance reached 0, if it did. */
  paid_date: string | null;
}

/**
 * The money still applied: payments, credits and writeoffs less refunds. The one figure
 * the guards use: an update cannot take the total below it; void and delete need it at 0
 * (so a fully refunded invoice can be voided or deleted).
 */
export function netApplied(applied: InvoiceApplied): Decimal {
  return applied.payments.plus(applied.credits).plus(applied.writeoffs).minus(applied.refunds);
}

export function hasNetApplied(applied: InvoiceApplied): boolean {
  return netApplied(applied).gt(0);
}

export const NOTHING_APPLIED: InvoiceApplied = {
  payments: ZERO,
  credits: ZERO,
  refunds: ZERO,
  writeoffs: ZERO,
  declines: 0,
  paid_date: null,
};

/**
 * A module that applies money to invoices (payments). It answers for a whole page of
 * invoices in a fixed number of queries, never one per invoice, inside `manager`'s
 * transaction when there is one.
 */
export interface InvoiceAppliedSource {
  appliedFor(manager: EntityManager, invoiceIds: number[]): Promise<Map<number, Partial<InvoiceApplied>>>;
}

/** Marks a provider as a source of applied money (it implements `InvoiceAppliedSource`). */
export const InvoiceAppliedSource = pluginClass<InvoiceAppliedSource, void>();

/**
 * What in another module still names an invoice (e.g. transactions whose `applied_to`
 * holds it), as the end of "This invoice cannot be deleted: ...", or null for nothing.
 */
export type InvoiceReferenceCheck = (manager: EntityManager, invoiceId: number) => Promise<string | null>;

/** Marks a method as a reference check: what it finds refuses the invoice's deletion. */
export const InvoiceReferenceCheck = pluginMethod<InvoiceReferenceCheck, void>();

/** Marks a method as an in-flight check (money on its way): what it finds refuses a void or a delete for now. */
export const InvoiceInFlightCheck = pluginMethod<InvoiceReferenceCheck, void>();

/** Marks a provider whose module adds nested invoice query fields (`exists` subqueries against `i`). */
export const InvoiceQueryFields = pluginClass<unknown, FieldMap>();

/**
 * Where later modules plug into invoices: the money they apply (payments, credits,
 * refunds, declines, paid date) and the nested query fields over their tables
 * (`transaction.transaction_id`, `quote.quote_id`, `package_token`), as `exists`
 * subqueries against the invoice alias `i`. Found at start: the providers and methods
 * marked with the decorators above and `@InvoiceCreditHandler()`.
 */
@Injectable()
export class InvoiceExtensions implements OnModuleInit {
  private readonly sources: InvoiceAppliedSource[] = [];
  private readonly fields: Record<string, FieldMap[string]> = {};
  private readonly referenceChecks: InvoiceReferenceCheck[] = [];
  private readonly inFlightChecks: InvoiceReferenceCheck[] = [];
  private creditHandler: InvoiceCreditHandler | null = null;

  constructor(private readonly plugins: Plugins) {}

  onModuleInit(): void {
    for (const { instance } of this.plugins.classes(InvoiceAppliedSource)) this.addAppliedSource(instance);
    for (const { options } of this.plugins.classes(InvoiceQueryFields)) this.addQueryFields(options);
    for (const check of this.plugins.methods(InvoiceReferenceCheck)) this.addReferenceCheck(check.handler);
    for (const check of this.plugins.methods(InvoiceInFlightCheck)) this.addInFlightCheck(check.handler);
    for (const { instance } of this.plugins.classes(InvoiceCreditHandler)) this.setCreditHandler(instance);
  }

  /** The customer credit balance (transactions): credit memos and open credit on issued invoices. */
  setCreditHandler(handler: InvoiceCreditHandler): void {
    if (this.creditHandler) throw new Error('A credit handler is already registered');
    this.creditHandler = handler;
  }

  /** The credit handler; a server-issued draft cannot be issued without one. */
  credit(): InvoiceCreditHandler {
    if (!this.creditHandler) throw new Error('No credit handler is registered');
    return this.creditHandler;
  }

  addAppliedSource(source: InvoiceAppliedSource): void {
    this.sources.push(source);
  }

  /** A deleted invoice must leave nothing naming it behind: such a check refuses the deletion. */
  addReferenceCheck(check: InvoiceReferenceCheck): void {
    this.referenceChecks.push(check);
  }

  async referencesTo(manager: EntityManager, invoiceId: number): Promise<string[]> {
    return runChecks(this.referenceChecks, manager, invoiceId);
  }

  /**
   * Money on its way to an invoice that is not applied yet (a charge sent to the gateway and
   * not yet recorded): while there is any, the invoice is neither voided nor deleted, as it
   * would not be once the money is applied.
   */
  addInFlightCheck(check: InvoiceReferenceCheck): void {
    this.inFlightChecks.push(check);
  }

  /** The 400 for voiding or deleting an invoice while money is on its way to it. Call under its lock. */
  async assertNothingInFlight(manager: EntityManager, invoiceId: number, what: 'voided' | 'deleted'): Promise<void> {
    const found = await runChecks(this.inFlightChecks, manager, invoiceId);
    if (found.length > 0) {
      throw ApiError.badRequest(`This invoice cannot be ${what} now: ${found.join('; ')}; retry once it has finished.`);
    }
  }

  /** E.g. `{'transaction.transaction_id': {expr: 'ta.transaction_id', type: 'int', exists: 'SELECT 1 FROM ... WHERE ta.invoice_id = i.invoice_id AND {cond}'}}`. */
  addQueryFields(fields: FieldMap): void {
    Object.assign(this.fields, fields);
  }

  queryFields(): FieldMap {
    return this.fields;
  }

  async appliedFor(manager: EntityManager, invoiceIds: number[]): Promise<Map<number, InvoiceApplied>> {
    const result = new Map<number, InvoiceApplied>(invoiceIds.map((id) => [id, { ...NOTHING_APPLIED }]));
    if (invoiceIds.length === 0) return result;
    for (const source of this.sources) {
      for (const [id, part] of await source.appliedFor(manager, invoiceIds)) {
        const current = result.get(id);
        if (!current) continue;
        current.payments = current.payments.plus(part.payments ?? ZERO);
        current.credits = current.credits.plus(part.credits ?? ZERO);
        current.refunds = current.refunds.plus(part.refunds ?? ZERO);
        current.writeoffs = current.writeoffs.plus(part.writeoffs ?? ZERO);
        current.declines += part.declines ?? 0;
        current.paid_date = part.paid_date ?? current.paid_date;
      }
    }
    return result;
  }
}

async function runChecks(
  checks: InvoiceReferenceCheck[],
  manager: EntityManager,
  invoiceId: number,
): Promise<string[]> {
  const found: string[] = [];
  for (const check of checks) {
    const reference = await check(manager, invoiceId);
    if (reference !== null) found.push(reference);
  }
  return found;
}
