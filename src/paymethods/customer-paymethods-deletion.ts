import { Injectable } from '@nestjs/common';
import { ObjectLiteral } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { RefTarget } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { CustomerDeletionCascade } from 'src/customers/customer-deletion';
import { Tx } from 'src/database/unit-of-work';
import { BANK_ACCOUNT_REF } from './bank-accounts.service';
import { CARD_REF } from './credit-cards.service';
import { TOKENIZED_REF } from './tokenized.service';

const KINDS: RefTarget<ObjectLiteral>[] = [CARD_REF, BANK_ACCOUNT_REF, TOKENIZED_REF];

/**
 * A deleted customer's stored payment methods are deleted with it (soft, as DELETE
 * /creditcard does): nothing may charge them any more. Payments already made keep
 * their own record of the method used.
 */
@Injectable()
export class CustomerPaymethodsDeletion {
  constructor(private readonly revisions: RevisionService) {}

  @CustomerDeletionCascade()
  async removeAllOf(tx: Tx, ctx: RequestContext, customerId: number): Promise<void> {
    for (const kind of KINDS) {
      const rows = await tx.manager.find(kind.entity, { where: { customer_id: customerId } });
      for (const row of rows) {
        const id = row[kind.idColumn] as number;
        await tx.manager.softDelete(kind.entity, id);
        await this.revisions.record(tx, ctx, kind.resource, id, 'Payment method deleted with its customer');
      }
    }
  }
}
