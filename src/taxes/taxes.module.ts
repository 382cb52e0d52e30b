import { Module } from '@nestjs/common';
import { TaxesController } from './taxes.controller';
import { TaxesService } from './taxes.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TaxGroup } from './entities/tax-group.entity';

@Module({
  imports: [TypeOrmModule.forFeature([TaxGroup])],
  controllers: [TaxesController],
  providers: [TaxesService],
  exports: [TaxesService],
})
export class TaxesModule {}
