import { Controller } from '@nestjs/common';
import { ResourceController } from 'src/core/resource/resource-controller';
import { CreateItemDto, UpdateItemDto } from './dto/item-fields.dto';
import { ItemsService } from './items.service';
import { WireItem } from './wire-item';

@Controller('api/v3/item')
export class ItemsController extends ResourceController({
  resource: 'item',
  noun: 'item',
  plural: 'items',
  create: CreateItemDto,
  update: UpdateItemDto,
  response: { one: WireItem },
}) {
  constructor(protected readonly reads: ItemsService) {
    super();
  }
}
