import { Module } from '@nestjs/common';
import { TaxesModule } from 'src/taxes/taxes.module';
import { ItemPresenter } from './item.presenter';
import { ItemsController } from './items.controller';
import { ItemsService } from './items.service';
import { TiersetPresenter } from './tierset.presenter';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Item } from './entities/item.entity';
import { Tierset } from './entities/tierset.entity';
import { Tier } from './entities/tier.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Item, Tierset, Tier]), TaxesModule],
  controllers: [ItemsController],
  providers: [ItemsService, ItemPresenter, TiersetPresenter],
  exports: [ItemsService, TiersetPresenter],
})
export class ItemsModule {}
