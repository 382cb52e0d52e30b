import { Controller } from '@nestjs/common';
import { ResourceController } from 'src/core/resource/resource-controller';
import { CreateSubscriptionDto, UpdateSubscriptionDto } from './dto/subscription-fields.dto';
import { SubscriptionsService } from './subscriptions.service';

@Controller('api/v3/package')
export class SubscriptionsController extends ResourceController({
  resource: 'package',
  noun: 'subscription',
  plural: 'subscriptions',
  create: CreateSubscriptionDto,
  update: UpdateSubscriptionDto,
  actions: true,
}) {
  constructor(protected readonly reads: SubscriptionsService) {
    super();
  }
}
