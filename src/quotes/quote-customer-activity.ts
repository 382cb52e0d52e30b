import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerActivity } from 'src/customers/customer-activity';

/** A quote dated on or after the date counts as customer activity. */
@Injectable()
export class QuoteCustomerActivity implements OnModuleInit {
  constructor(private readonly activity: CustomerActivity) {}

  onModuleInit(): void {
    this.activity.addSource(
      (customerId, since) => `EXISTS (SELECT 1 FROM quote aq WHERE aq.customer_id = ${customerId} AND aq.date >= ${since})`,
    );
  }
}
