import { Module } from '@nestjs/common';
import { CustomerActions } from './customer-actions';
import { CustomerActivity } from './customer-activity';
import { CustomerDeletion } from './customer-deletion';
import { CustomerExtensions } from './customer-figures';
import { CustomerPresenter } from './customer.presenter';
import { CustomersController } from './customers.controller';
import { CustomersService } from './customers.service';

@Module({
  controllers: [CustomersController],
  providers: [
    CustomersService,
    CustomerPresenter,
    CustomerExtensions,
    CustomerActions,
    CustomerDeletion,
    CustomerActivity,
  ],
  exports: [
    CustomersService,
    CustomerPresenter,
    CustomerExtensions,
    CustomerActions,
    CustomerDeletion,
    CustomerActivity,
  ],
})
export class CustomersModule {}
