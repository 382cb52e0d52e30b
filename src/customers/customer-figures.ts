import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, ObjectLiteral } from 'typeorm';
import { ZERO } from 'src/core/money/decimal';
import { AmountSum, amountSum } from 'src/core/money/amount-sum';
import { pluginClass, pluginMethod, Plugins } from 'src/core/plugins/plugins';

/** A customer's money figures (SPEC "Customer": total, balance, paid, mrr, arr). */
export interface CustomerFigures {
  total: Decimal;
  balance: Decimal;
  paid: Decimal;
  mrr: Decimal;
  arr: Decimal;
}

/**
 * The SQL of an exact sum of 2-decimal amounts (a column or expression) on the database at
 * hand: a plain `SUM(...)` would be a float sum on SQLite (database/amount-sum.ts).
 */
export type SqlAmountSum = AmountSum['sql'];

/**
 * A module that contributes to the figures (invoices add `total`/`balance`, payments
 * `paid`, subscriptions `mrr`/`arr`). It contributes one sum per kind and customer, which
 * the database computes exactly inside the customer read itself: a read costs no extra
 * statement, and no more however many invoices and payments the customer has.
 */
export interface CustomerFiguresSource {
  /**
   * Per kind (each kind belongs to one source), a scalar subquery: `(SELECT sum(<amount
   * column>) FROM ... WHERE <customer column> = ${customerId} AND ...)`, where `customerId`
   * is the outer read's customer id column. Its parameters share the customer read's
   * namespace: prefix them with the module's name.
   */
  sums: Readonly<Record<string, (sum: SqlAmountSum, customerId: string) => string>>;
  params?: ObjectLiteral;
  /** Adds one kind's sum to its customer's figures. */
  add(figures: CustomerFigures, kind: string, amount: Decimal): void;
}

/** Marks a provider as a figures source (it implements `CustomerFiguresSource`). */
export const CustomerFiguresSource = pluginClass<CustomerFiguresSource, void>();

/**
 * The figures as extra columns of a customer SELECT: add `selects` to its columns and
 * `params` to its parameters, then `read` the values of those columns (in that order).
 * Whether the customer is overdue is no extra column: it is its stored `open_due_date`
 * compared with today (customer-status.ts `isOverdue`).
 */
export interface FigureColumns {
  readonly selects: readonly string[];
  readonly params: ObjectLiteral;
  read(values: readonly unknown[]): CustomerFigures;
}

/** Decides whether a customer's parent may change (rule 2: not once it paid for the customer). */
export type ParentChangeGuard = (manager: EntityManager, customerId: number, currentParentId: number) => Promise<void>;

/** Marks a method as a parent change guard (it throws the 400 that refuses the change). */
export const ParentChangeGuard = pluginMethod<ParentChangeGuard, void>();

export const EMPTY_FIGURES: CustomerFigures = { total: ZERO, balance: ZERO, paid: ZERO, mrr: ZERO, arr: ZERO };

/**
 * Where later modules plug their figures and rules into customers, found at start:
 * `@CustomerFiguresSource()` providers and `@ParentChangeGuard()` methods.
 */
@Injectable()
export class CustomerExtensions implements OnModuleInit {
  private readonly sources: CustomerFiguresSource[] = [];
  private readonly claimedKinds = new Set<string>();
  private readonly parentGuards: ParentChangeGuard[] = [];
  /** Built once per way of summing and customer id column (a read path asks for the same every time). */
  private readonly columns = new Map<string, FigureColumns>();
  private figuresParams: ObjectLiteral = {};

  constructor(@Optional() private readonly plugins?: Plugins) {}

  onModuleInit(): void {
    if (!this.plugins) return;
    for (const { instance } of this.plugins.classes(CustomerFiguresSource)) this.addFiguresSource(instance);
    for (const guard of this.plugins.methods(ParentChangeGuard)) this.addParentChangeGuard(guard.handler);
  }

  addFiguresSource(source: CustomerFiguresSource): void {
    for (const kind of Object.keys(source.sums)) {
      if (this.claimedKinds.has(kind)) throw new Error(`Customer figures: kind "${kind}" has two sources`);
      this.claimedKinds.add(kind);
    }
    this.sources.push(source);
    this.columns.clear();
    this.figuresParams = { ...this.figuresParams, ...source.params };
  }

  addParentChangeGuard(guard: ParentChangeGuard): void {
    this.parentGuards.push(guard);
  }

  /**
   * The figures of the customer whose id is `customerId` (a column of the customer SELECT,
   * e.g. `c.customer_id`), as extra columns of that SELECT. One statement reads a page of
   * customers with their figures: on MariaDB, the customer row and a separate UNION of
   * grouped sums cost a read by id 124 µs of database and 76 µs of client CPU against 87 and
   * 52 µs as one statement, and on SQLite 14.8 against 8.9 µs (empty figure tables).
   */
  figureColumns(manager: EntityManager, customerId: string): FigureColumns {
    const sum = amountSum(manager);
    const key = `${sum.name}\u0000${customerId}`;
    let columns = this.columns.get(key);
    if (!columns) {
      columns = this.buildColumns(sum, customerId);
      this.columns.set(key, columns);
    }
    return columns;
  }

  async assertParentMayChange(manager: EntityManager, customerId: number, currentParentId: number): Promise<void> {
    for (const guard of this.parentGuards) await guard(manager, customerId, currentParentId);
  }

  private buildColumns(sum: AmountSum, customerId: string): FigureColumns {
    const parts: Array<{ source: CustomerFiguresSource; kind: string; sql: string }> = [];
    for (const source of this.sources) {
      for (const [kind, subquery] of Object.entries(source.sums)) {
        parts.push({ source, kind, sql: subquery(sum.sql, customerId) });
      }
    }
    return {
      // Aliased by position, like the entity's own columns (EntityReader).
      selects: parts.map((part, i) => `${part.sql} AS figure_${i}`),
      params: this.figuresParams,
      read: (values) => {
        const figures = { ...EMPTY_FIGURES };
        parts.forEach((part, i) => {
          const value = values[i] as string | number | null | undefined;
          // No rows of that kind: nothing to add.
          if (value !== null && value !== undefined) part.source.add(figures, part.kind, sum.read(value));
        });
        return figures;
      },
    };
  }
}
