import { Controller } from '@nestjs/common';
import { ResourceController } from 'src/core/resource/resource-controller';
import { CreateSubscriptionDto, UpdateSubscriptionDto } from './dto/subscription-fields.dto';
import { SubscriptionsService } from './subscriptions.service';
import { WireFullSubscription, WireSubscription } from './wire-subscription';

@Controller('api/v3/package')
export class SubscriptionsController extends ResourceController({
  resource: 'package',
  noun: 'subscription',
  plural: 'subscriptions',
  create: CreateSubscriptionDto,
  update: UpdateSubscriptionDto,
  actions: true,
  response: { one: WireFullSubscription, many: WireSubscription },
}) {
  constructor(protected readonly reads: SubscriptionsService) {
    super();
  }
}
