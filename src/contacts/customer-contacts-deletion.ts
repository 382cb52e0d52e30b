import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerDeletion } from 'src/customers/customer-deletion';
import { ContactsService } from './contacts.service';

/** A deleted customer's contacts are deleted with it (they cannot log in to a customer that is gone). */
@Injectable()
export class CustomerContactsDeletion implements OnModuleInit {
  constructor(
    private readonly deletion: CustomerDeletion,
    private readonly contacts: ContactsService,
  ) {}

  onModuleInit(): void {
    this.deletion.addCascade((tx, ctx, customerId) => this.contacts.removeAllOf(tx, ctx, customerId));
  }
}
