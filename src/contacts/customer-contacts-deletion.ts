import { Injectable } from '@nestjs/common';
import { RequestContext } from 'src/core/context/request-context';
import { CustomerDeletionCascade } from 'src/customers/customer-deletion';
import { Tx } from 'src/database/unit-of-work';
import { ContactsService } from './contacts.service';

/** A deleted customer's contacts are deleted with it (they cannot log in to a customer that is gone). */
@Injectable()
export class CustomerContactsDeletion {
  constructor(private readonly contacts: ContactsService) {}

  @CustomerDeletionCascade()
  removeAllOf(tx: Tx, ctx: RequestContext, customerId: number): Promise<void> {
    return this.contacts.removeAllOf(tx, ctx, customerId);
  }
}
