import { Global, Module } from '@nestjs/common';
import { ReferenceController } from './reference.controller';
import { ReferenceService } from './reference.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  AccountClass,
  Admin,
  Brand,
  Country,
  Currency,
  Language,
  Tax,
  Terms,
  UserType,
} from './entities/reference.entities';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AccountClass, Admin, Brand, Country, Currency, Language, Tax, Terms, UserType])],
  controllers: [ReferenceController],
  providers: [ReferenceService],
  exports: [ReferenceService],
})
export class ReferenceModule {}
