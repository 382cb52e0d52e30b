import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, ObjectLiteral } from 'typeorm';
import { ZERO } from 'src/core/money/decimal';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { queryRows } from 'src/database/raw-query';

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
   * A SELECT of `kind`, `customer_id`, `amount` rows for the customers in `:...ids`.
   * All sources run as one UNION ALL, so their other parameters share one namespace:
   * prefix them with the module's name.
   */
  sql: string;
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
  /** The sources' SELECTs as one statement: one round trip for a page of customers. */
  private figuresSql = '';
  private figuresParams: ObjectLiteral = {};

  addFiguresSource(source: CustomerFiguresSource): void {
    for (const kind of source.kinds) {
      if (this.sourceOfKind.has(kind)) throw new Error(`Customer figures: kind "${kind}" has two sources`);
      this.sourceOfKind.set(kind, source);
    }
    this.figuresSql = this.figuresSql ? `${this.figuresSql}\nUNION ALL\n${source.sql}` : source.sql;
    this.figuresParams = { ...this.figuresParams, ...source.params };
  }

  addParentChangeGuard(guard: ParentChangeGuard): void {
    this.parentGuards.push(guard);
  }

  async figuresFor(manager: EntityManager, customerIds: number[]): Promise<Map<number, CustomerFigures>> {
    const result = new Map<number, CustomerFigures>(customerIds.map((id) => [id, { ...EMPTY_FIGURES }]));
    if (customerIds.length === 0 || !this.figuresSql) return result;
    const rows = await queryRows<FigureRow>(manager, this.figuresSql, { ...this.figuresParams, ids: customerIds });
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
