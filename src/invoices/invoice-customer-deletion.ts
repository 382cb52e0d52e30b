import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CustomerDeletionGuard, refuseWhileCustomerHas } from 'src/customers/customer-deletion';
import { Invoice } from './entities/invoice.entity';

/** A customer with invoices (void ones too) stays: they are part of the books. */
@Injectable()
export class InvoiceCustomerDeletion {
  @CustomerDeletionGuard()
  objection(manager: EntityManager, customerId: number): Promise<string | null> {
    return refuseWhileCustomerHas(manager, customerId, Invoice, 'invoice');
  }
}
