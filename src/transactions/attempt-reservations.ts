import Decimal from 'decimal.js';
import { EntityManager, Not } from 'typeorm';
import { ZERO } from 'src/core/money/decimal';
import { PaymentAttempt } from './entities/payment-attempt.entity';
import { PayableInvoice } from './invoice-ledger';

/** What pending charges have reserved, per invoice and per scheduled payment. */
export interface Reserved {
  invoices: Map<number, Decimal>;
  schedules: Map<number, Decimal>;
}

/**
 * What pending charge attempts (other than `exceptId`) reserve. Read after the
 * invoices' locks, so every attempt opened before is seen and none can open meanwhile.
 * Pending attempts are the few in flight, so they are read whole.
 */
export async function pendingReservations(m: EntityManager, exceptId?: number): Promise<Reserved> {
  const attempts = await m.find(PaymentAttempt, {
    where: {
      status: 'pending',
      kind: 'charge',
      ...(exceptId !== undefined ? { payment_attempt_id: Not(exceptId) } : {}),
    },
    select: { payment_attempt_id: true, applications: true },
  });
  const reserved: Reserved = { invoices: new Map(), schedules: new Map() };
  for (const a of attempts.flatMap((attempt) => attempt.applications)) {
    const amount = new Decimal(a.applied);
    reserved.invoices.set(a.invoice_id, (reserved.invoices.get(a.invoice_id) ?? ZERO).plus(amount));
    if (a.invoice_schedule_id !== null) {
      reserved.schedules.set(
        a.invoice_schedule_id,
        (reserved.schedules.get(a.invoice_schedule_id) ?? ZERO).plus(amount),
      );
    }
  }
  return reserved;
}

/** The invoices as a new charge sees them: what pending charges reserved is not there to pay. */
export function withoutReserved(invoices: PayableInvoice[], reserved: Reserved): PayableInvoice[] {
  return invoices.map((invoice) => ({
    ...invoice,
    balance: Decimal.max(ZERO, invoice.balance.minus(reserved.invoices.get(invoice.invoice_id) ?? ZERO)),
    schedules: invoice.schedules?.map((s) => ({
      ...s,
      balance: Decimal.max(ZERO, s.balance.minus(reserved.schedules.get(s.invoice_schedule_id) ?? ZERO)),
    })),
  }));
}
