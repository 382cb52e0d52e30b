import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerDeletion, refuseWhileCustomerHas } from 'src/customers/customer-deletion';
import { Quote } from './entities/quote.entity';

/** A customer with quotes stays: a quote names its customer (and may become an invoice). */
@Injectable()
export class QuoteCustomerDeletion implements OnModuleInit {
  constructor(private readonly deletion: CustomerDeletion) {}

  onModuleInit(): void {
    this.deletion.addGuard(refuseWhileCustomerHas(Quote, 'quote'));
  }
}
