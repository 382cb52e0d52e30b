import { Module } from '@nestjs/common';
import { PaymentGateway } from './payment-gateway';
import { TestGateway } from './test-gateway';

/** The payment gateway: the built-in test gateway until a real one is configured. */
@Module({
  providers: [{ provide: PaymentGateway, useClass: TestGateway }],
  exports: [PaymentGateway],
})
export class PaymentsModule {}
