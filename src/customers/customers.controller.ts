import { Controller } from '@nestjs/common';
import { ResourceController } from 'src/core/resource/resource-controller';
import { CustomersService } from './customers.service';
import { CreateCustomerDto } from './dto/create-customer.dto';
import { UpdateCustomerDto } from './dto/update-customer.dto';
import { WireCustomer } from './wire-customer';

@Controller('api/v3/customer')
export class CustomersController extends ResourceController({
  resource: 'customer',
  noun: 'customer',
  plural: 'customers',
  create: CreateCustomerDto,
  update: UpdateCustomerDto,
  remove: true,
  actions: true,
  response: { one: WireCustomer },
}) {
  constructor(protected readonly reads: CustomersService) {
    super();
  }
}
