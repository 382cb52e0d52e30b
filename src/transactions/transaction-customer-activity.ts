import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerActivity } from 'src/customers/customer-activity';

/** A transaction dated on or after the date counts as customer activity. */
@Injectable()
export class TransactionCustomerActivity implements OnModuleInit {
  constructor(private readonly activity: CustomerActivity) {}

  onModuleInit(): void {
    this.activity.addSource(
      (customerId, since) =>
        `EXISTS (SELECT 1 FROM payment_transaction tx_a WHERE tx_a.customer_id = ${customerId} AND tx_a.transaction_date >= ${since})`,
    );
  }
}
