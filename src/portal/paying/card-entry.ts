import { Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from 'src/core/envelope/api-error';
import { ClientSideEntry, PaymentGateway } from 'src/payments/payment-gateway';
import { PaymethodForm } from './paymethod-form';

/**
 * How the hosted pages take a card for the gateway in use: this server's own form (test
 * gateway), or the gateway's browser library (Stripe Elements), so the card number never
 * reaches this server and the pages post only the gateway's token.
 */
@Injectable()
export class CardEntry {
  private code: string | null = null;

  constructor(private readonly gateway: PaymentGateway) {}

  /** What the templates need: `stripe` (key and script) when Stripe.js takes the card. */
  view(): { stripe: ClientSideEntry | null; cardHere: boolean } {
    const entry = this.gateway.clientSide;
    return { stripe: entry, cardHere: entry === null };
  }

  /** A posted form of the kind the page offers for this gateway; a 400 otherwise. */
  check(form: PaymethodForm): PaymethodForm {
    const viaGateway = this.gateway.clientSide !== null;
    if (viaGateway && form.kind !== 'stripe') {
      throw ApiError.badRequest('Enter your card in the card field: card details go from your browser to Stripe only.');
    }
    if (!viaGateway && form.kind === 'stripe') throw ApiError.badRequest('Choose to pay by card or by bank account.');
    return form;
  }

  /** The page script that mounts Stripe Elements and posts its `pm_…` id. */
  script(): string {
    this.code ??= readFileSync(join(__dirname, '..', 'templates', 'stripe-card.js'), 'utf8');
    return this.code;
  }
}
