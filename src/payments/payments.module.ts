import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { GatewayEvent } from './gateway-event.entity';
import { PaymentGateway } from './payment-gateway';
import { StripeCustomer } from './stripe/stripe-customer.entity';
import { StripeGateway } from './stripe/stripe-gateway';
import { TestGateway } from './test-gateway';

/** The payment gateway PAYMENT_GATEWAY names: the built-in test gateway, or Stripe. */
@Module({
  imports: [TypeOrmModule.forFeature([StripeCustomer, GatewayEvent])],
  providers: [
    {
      provide: PaymentGateway,
      inject: [APP_CONFIG, Clock, DataSource],
      useFactory: (config: AppConfig, clock: Clock, dataSource: DataSource): PaymentGateway =>
        config.paymentGateway === 'stripe' ? new StripeGateway(config, dataSource, clock) : new TestGateway(clock),
    },
  ],
  exports: [PaymentGateway],
})
export class PaymentsModule {}
