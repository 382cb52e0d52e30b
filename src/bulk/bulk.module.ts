import { Module } from '@nestjs/common';
import { BulkController } from './bulk.controller';
import { BulkDispatcher } from './bulk-dispatcher';

@Module({ controllers: [BulkController], providers: [BulkDispatcher] })
export class BulkModule {}
