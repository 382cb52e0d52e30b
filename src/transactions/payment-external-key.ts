import { EntityManager } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { assertExternalKeyFree } from 'src/core/refs/external-key';
import { PaymentAttempt } from './entities/payment-attempt.entity';
import { Transaction } from './entities/transaction.entity';

/**
 * A transaction's external key is taken by a transaction or by a payment attempt still
 * holding it for its charge (the attempt passes it on to its transaction in the same
 * unit of work): either way the same 400, before anything is charged.
 */
export async function assertPaymentKeyFree(m: EntityManager, externalKey: string | null | undefined): Promise<void> {
  if (externalKey === null || externalKey === undefined) return;
  await assertExternalKeyFree(m, Transaction, 'transaction_id', externalKey, 'transaction');
  if (await m.exists(PaymentAttempt, { where: { external_key: externalKey } })) {
    throw ApiError.badRequest(`Field "external_key": a transaction with external key "${externalKey}" already exists.`);
  }
}
