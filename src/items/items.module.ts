import { Module } from '@nestjs/common';
import { TaxesModule } from 'src/taxes/taxes.module';
import { ItemPresenter } from './item.presenter';
import { ItemsController } from './items.controller';
import { ItemsService } from './items.service';
import { TiersetPresenter } from './tierset.presenter';

@Module({
  imports: [TaxesModule],
  controllers: [ItemsController],
  providers: [ItemsService, ItemPresenter, TiersetPresenter],
  exports: [ItemsService, TiersetPresenter],
})
export class ItemsModule {}
