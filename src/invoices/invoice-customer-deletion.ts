import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerDeletion, refuseWhileCustomerHas } from 'src/customers/customer-deletion';
import { Invoice } from './entities/invoice.entity';

/** A customer with invoices (void ones too) stays: they are part of the books. */
@Injectable()
export class InvoiceCustomerDeletion implements OnModuleInit {
  constructor(private readonly deletion: CustomerDeletion) {}

  onModuleInit(): void {
    this.deletion.addGuard(refuseWhileCustomerHas(Invoice, 'invoice'));
  }
}
