import { Module } from '@nestjs/common';
import { CustomerActivity } from './customer-activity';
import { CustomerDeletion } from './customer-deletion';
import { CustomerExtensions } from './customer-figures';
import { CustomerPresenter } from './customer.presenter';
import { CustomersController } from './customers.controller';
import { CustomersService } from './customers.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Customer } from './entities/customer.entity';
import { Contact } from './entities/contact.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Customer, Contact])],
  controllers: [CustomersController],
  providers: [CustomersService, CustomerPresenter, CustomerExtensions, CustomerDeletion, CustomerActivity],
  exports: [CustomersService, CustomerPresenter, CustomerExtensions, CustomerDeletion, CustomerActivity],
})
export class CustomersModule {}
