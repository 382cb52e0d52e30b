import { Injectable } from '@nestjs/common';
import { RequestContext } from 'src/core/context/request-context';
import { PaymentService } from 'src/transactions/payment.service';
import { PaymethodForm } from './paymethod-form';

/**
 * A customer's payment from a pay link: exactly the API's pay action (the same service,
 * so the same charge records, applications, events and mail), with the typed-in method.
 */
@Injectable()
export class InvoicePayer {
  constructor(private readonly payments: PaymentService) {}

  async pay(
    ctx: RequestContext,
    customerId: number,
    invoiceId: number,
    scheduleId: number | null,
    form: PaymethodForm,
  ): Promise<void> {
    const target = scheduleId === null ? invoiceId : { invoice_id: invoiceId, invoice_schedule_id: scheduleId };
    // A new card in a payment takes no cardholder name (SPEC "paymethods"); a bank account does.
    const charge =
      form.kind === 'card'
        ? Object.fromEntries(Object.entries(form.fields).filter(([k]) => k !== 'name'))
        : form.fields;
    await this.payments.pay(ctx, {
      customer_id: customerId,
      applied_to: [target],
      paymethods: [charge],
    });
  }
}
