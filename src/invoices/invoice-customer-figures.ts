import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { ZERO } from 'src/core/money/decimal';
import { CustomerExtensions, CustomerFigures } from 'src/customers/customer-figures';
import { queryRows } from 'src/database/raw-query';

/**
 * Customer `total` (lifetime invoiced) and `balance` from invoices: the totals of the
 * customers' invoices that are not void. Payments lower `balance` through their own
 * figures source. One query per page of customers; summed in decimal, never SUM() of floats.
 */
@Injectable()
export class InvoiceCustomerFigures implements OnModuleInit {
  constructor(private readonly customers: CustomerExtensions) {}

  onModuleInit(): void {
    this.customers.addFiguresSource({ figuresFor: (m, ids) => this.figuresFor(m, ids) });
  }

  async figuresFor(manager: EntityManager, customerIds: number[]): Promise<Map<number, Partial<CustomerFigures>>> {
    const rows = await queryRows<{ customer_id: number; total: string | number }>(
      manager,
      `SELECT customer_id, total FROM invoice
       WHERE customer_id IN (:...ids) AND void_datetime IS NULL AND deleted_datetime IS NULL`,
      { ids: customerIds },
    );
    const totals = new Map<number, Decimal>();
    for (const row of rows) {
      const id = Number(row.customer_id);
      totals.set(id, (totals.get(id) ?? ZERO).plus(AMOUNT.transformer.from(row.total) ?? ZERO));
    }
    return new Map([...totals].map(([id, total]) => [id, { total, balance: total }]));
  }
}
