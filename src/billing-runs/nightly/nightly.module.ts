import { Module } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { InvoicesModule } from 'src/invoices/invoices.module';
import { NightlyJob } from './nightly-job';
import { NightlyDueWork } from './nightly-due-work';
import { InvoiceCustomerActivity } from './invoice-customer-activity';
import { TypeOrmModule } from '@nestjs/typeorm';
import { NightlyRun } from './nightly-run.entity';

@Module({
  imports: [TypeOrmModule.forFeature([NightlyRun]), CustomersModule, InvoicesModule],
  providers: [NightlyJob, NightlyDueWork, InvoiceCustomerActivity],
  exports: [NightlyJob],
})
export class NightlyModule {}
