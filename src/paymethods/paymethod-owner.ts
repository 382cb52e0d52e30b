import { EntityManager } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { resolvePayloadRef } from 'src/core/refs/ref-resolver';
import { CUSTOMER_REF } from 'src/customers/customers.service';

/** The customer a payment method is created for: one of customer_id / _token / _external_key, required. */
export async function requireCustomer(m: EntityManager, body: Record<string, unknown>): Promise<number> {
  const customerId = await resolvePayloadRef(m, CUSTOMER_REF, body, 'customer');
  if (customerId === undefined || customerId === null) {
    throw ApiError.badRequest(
      'A required parameter was missing: "customer_id" (or customer_token / customer_external_key).',
    );
  }
  return customerId;
}
