import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Public } from 'src/core/auth/public.decorator';
import { ApiError } from 'src/core/envelope/api-error';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { StripeGateway } from 'src/payments/stripe/stripe-gateway';
import { StripeEvents } from './stripe-events';

/**
 * Stripe's webhook endpoint (DESIGN §6 "Gateways"): no API credential; the body must be
 * signed with STRIPE_WEBHOOK_SECRET (`Stripe-Signature`, checked by the SDK over the exact
 * bytes), or it is a 400 that changes nothing.
 */
@Public()
@Controller('gateway/stripe')
export class StripeWebhookController {
  constructor(
    private readonly gateway: PaymentGateway,
    private readonly events: StripeEvents,
  ) {}

  @Post('webhook')
  @HttpCode(200)
  async receive(
    @Req() req: Request & { rawBody?: Buffer },
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<{ received: true; handled: boolean }> {
    const gateway = this.gateway;
    if (!(gateway instanceof StripeGateway)) {
      throw new ApiError(404, 'Stripe is not the payment gateway of this server (PAYMENT_GATEWAY).');
    }
    let event;
    try {
      event = gateway.verifyEvent(req.rawBody ?? Buffer.alloc(0), signature ?? '');
    } catch {
      throw ApiError.badRequest('Invalid "Stripe-Signature": the event is not signed with STRIPE_WEBHOOK_SECRET.');
    }
    return { received: true, handled: await this.events.handle(gateway, event) };
  }
}
