import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerDeletion } from 'src/customers/customer-deletion';
import { Invoice } from './entities/invoice.entity';

/** A customer with invoices (void ones too) stays: they are part of the books. */
@Injectable()
export class InvoiceCustomerDeletion implements OnModuleInit {
  constructor(private readonly deletion: CustomerDeletion) {}

  onModuleInit(): void {
    this.deletion.addGuard(async (m, customerId) => {
      const invoices = await m.count(Invoice, { where: { customer_id: customerId } });
      return invoices > 0 ? `it has ${invoices} invoice(s), which stay on the books` : null;
    });
  }
}
