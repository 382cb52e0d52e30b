import { RefTarget } from 'src/core/refs/ref-resolver';
import { Subscription } from './entities/subscription.entity';

export const SUBSCRIPTION_REF: RefTarget<Subscription> = {
  entity: Subscription,
  idColumn: 'package_id',
  resource: 'package',
};
