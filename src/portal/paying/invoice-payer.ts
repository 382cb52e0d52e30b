import { Injectable } from '@nestjs/common';
import { RequestContext } from 'src/core/context/request-context';
import { PaymentService } from 'src/transactions/payment.service';
import { PaymethodForm } from './paymethod-form';
import { PaymethodSaver } from './paymethod-saver';

/**
 * A customer's payment from a pay link: exactly the API's pay action (the same service,
 * so the same charge records, applications, events and mail), with the typed-in method
 * (or the gateway's token of it).
 */
@Injectable()
export class InvoicePayer {
  constructor(
    private readonly payments: PaymentService,
    private readonly saver: PaymethodSaver,
  ) {}

  /** The client secret when the payer's bank asks it to confirm the payment (3-D Secure), else null. */
  async pay(
    ctx: RequestContext,
    customerId: number,
    invoiceId: number,
    scheduleId: number | null,
    form: PaymethodForm,
  ): Promise<string | null> {
    const target = scheduleId === null ? invoiceId : { invoice_id: invoiceId, invoice_schedule_id: scheduleId };
    const result = await this.payments.pay(ctx, {
      customer_id: customerId,
      applied_to: [target],
      paymethods: [await this.method(ctx, customerId, form)],
    });
    const secret = result.details.gateway_client_secret;
    return typeof secret === 'string' ? secret : null;
  }

  private async method(ctx: RequestContext, customerId: number, form: PaymethodForm): Promise<Record<string, unknown>> {
    // The gateway's token: kept as a tokenized method of the customer (attached to its gateway customer), then charged.
    if (form.kind === 'stripe') return { tokenized_id: await this.saver.storeToken(ctx, customerId, form) };
    // A new card in a payment takes no cardholder name (SPEC "paymethods"); a bank account does.
    return form.kind === 'card'
      ? Object.fromEntries(Object.entries(form.fields).filter(([k]) => k !== 'name'))
      : form.fields;
  }
}
