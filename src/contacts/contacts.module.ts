import { Module } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { ContactsController } from './contacts.controller';
import { ContactsService } from './contacts.service';
import { CustomerContactsDeletion } from './customer-contacts-deletion';
import { PortalLinksService } from './portal-links.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoginToken } from './entities/login-token.entity';

@Module({
  imports: [TypeOrmModule.forFeature([LoginToken]), CustomersModule],
  controllers: [ContactsController],
  providers: [ContactsService, PortalLinksService, CustomerContactsDeletion],
  exports: [ContactsService, PortalLinksService],
})
export class ContactsModule {}
