import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, In, IsNull } from 'typeorm';
import { ZERO } from 'src/core/money/decimal';
import { CustomerExtensions, CustomerFigures } from 'src/customers/customer-figures';
import { Invoice } from './entities/invoice.entity';

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
    const rows = await manager.find(Invoice, {
      where: { customer_id: In(customerIds), void_datetime: IsNull() },
      select: { invoice_id: true, customer_id: true, total: true },
    });
    const totals = new Map<number, Decimal>();
    for (const row of rows) totals.set(row.customer_id, (totals.get(row.customer_id) ?? ZERO).plus(row.total));
    return new Map([...totals].map(([id, total]) => [id, { total, balance: total }]));
  }
}
