import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, ObjectLiteral } from 'typeorm';
import { ZERO } from 'src/core/money/decimal';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { queryRows, runsInProcess } from 'src/database/raw-query';

/** A customer's money figures (SPEC "Customer": total, balance, paid, mrr, arr). */
export interface CustomerFigures {
  total: Decimal;
  balance: Decimal;
  paid: Decimal;
  mrr: Decimal;
  arr: Decimal;
}

/**
 * A module that contributes to the figures (invoices add `total`/`balance`, payments
 * `paid`, subscriptions `mrr`/`arr`). It contributes money rows, not sums: SQL sums of
 * DECIMAL columns are floats on SQLite, so amounts are summed here in decimal.
 */
export interface CustomerFiguresSource {
  /**
   * SELECTs of `kind`, `customer_id`, `amount` rows for the customers in `:...ids`, each
   * on its own (no UNION inside). A server database gets every source's SELECTs as one
   * UNION ALL, so their other parameters share one namespace: prefix them with the
   * module's name.
   */
  selects: readonly string[];
  params?: ObjectLiteral;
  /** The `kind` values the SELECT yields (each kind belongs to one source). */
  kinds: readonly string[];
  /** Adds one row's amount to its customer's figures. */
  add(figures: CustomerFigures, kind: string, amount: Decimal): void;
}

/** Decides whether a customer's parent may change (rule 2: not once it paid for the customer). */
export type ParentChangeGuard = (manager: EntityManager, customerId: number, currentParentId: number) => Promise<void>;

export const EMPTY_FIGURES: CustomerFigures = { total: ZERO, balance: ZERO, paid: ZERO, mrr: ZERO, arr: ZERO };

interface FigureRow {
  kind: string;
  customer_id: number | string;
  amount: string | number | null;
}

/** Where later modules plug their figures and rules into customers. */
@Injectable()
export class CustomerExtensions {
  private readonly sourceOfKind = new Map<string, CustomerFiguresSource>();
  private readonly parentGuards: ParentChangeGuard[] = [];
  /** Every source's SELECTs, for SQLite (see figuresFor). */
  private readonly selects: string[] = [];
  /** The same SELECTs as one statement: one round trip for a page of customers. */
  private unionSql = '';
  private figuresParams: ObjectLiteral = {};

  addFiguresSource(source: CustomerFiguresSource): void {
    for (const kind of source.kinds) {
      if (this.sourceOfKind.has(kind)) throw new Error(`Customer figures: kind "${kind}" has two sources`);
      this.sourceOfKind.set(kind, source);
    }
    this.selects.push(...source.selects);
    this.unionSql = this.selects.join('\nUNION ALL\n');
    this.figuresParams = { ...this.figuresParams, ...source.params };
  }

  addParentChangeGuard(guard: ParentChangeGuard): void {
    this.parentGuards.push(guard);
  }

  async figuresFor(manager: EntityManager, customerIds: number[]): Promise<Map<number, CustomerFigures>> {
    const result = new Map<number, CustomerFigures>(customerIds.map((id) => [id, { ...EMPTY_FIGURES }]));
    if (customerIds.length === 0 || this.selects.length === 0) return result;
    const params = { ...this.figuresParams, ids: customerIds };
    // In process (SQLite) a statement costs no round trip, and a compound SELECT with an
    // IN list in each part costs SQLite far more than its parts run one by one (a page of
    // ten customers: 38 µs against 8 µs).
    const statements = runsInProcess(manager) ? this.selects : [this.unionSql];
    const rows: FigureRow[] = [];
    for (const sql of statements) rows.push(...(await queryRows<FigureRow>(manager, sql, params)));
    for (const row of rows) {
      const figures = result.get(Number(row.customer_id));
      const source = this.sourceOfKind.get(row.kind);
      if (!figures || !source) continue;
      source.add(figures, row.kind, AMOUNT.transformer.from(row.amount) ?? ZERO);
    }
    return result;
  }

  async assertParentMayChange(manager: EntityManager, customerId: number, currentParentId: number): Promise<void> {
    for (const guard of this.parentGuards) await guard(manager, customerId, currentParentId);
  }
}
