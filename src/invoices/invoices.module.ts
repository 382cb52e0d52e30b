import { Module } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { TaxesModule } from 'src/taxes/taxes.module';
import { InvoiceActions } from './invoice-actions';
import { InvoiceCustomerDeletion } from './invoice-customer-deletion';
import { InvoiceCustomerFigures } from './invoice-customer-figures';
import { InvoiceEvents } from './invoice-events';
import { InvoiceExtensions } from './invoice-extensions';
import { InvoiceIssueMail } from './invoice-issue-mail';
import { InvoiceIssuer } from './invoice-issuer';
import { InvoiceReader } from './invoice-reader';
import { InvoiceStatusUpdater } from './invoice-status-updater';
import { OpenDueDates } from './open-due-dates';
import { InvoicePresenter } from './invoice.presenter';
import { InvoicesController } from './invoices.controller';
import { InvoicesService } from './invoices.service';
import { PricingInputsLoader } from './pricing-inputs-loader';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Invoice } from './entities/invoice.entity';
import { InvoiceLine } from './entities/invoice-line.entity';
import { InvoiceSchedule } from './entities/invoice-schedule.entity';
import { InvoiceDelivery } from './entities/invoice-delivery.entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([Invoice, InvoiceLine, InvoiceSchedule, InvoiceDelivery]),
    CustomersModule,
    TaxesModule,
  ],
  controllers: [InvoicesController],
  providers: [
    InvoicesService,
    InvoiceActions,
    InvoiceReader,
    InvoicePresenter,
    InvoiceEvents,
    InvoiceExtensions,
    InvoiceStatusUpdater,
    OpenDueDates,
    InvoiceCustomerFigures,
    InvoiceCustomerDeletion,
    InvoiceIssuer,
    InvoiceIssueMail,
    PricingInputsLoader,
  ],
  exports: [
    InvoicesService,
    InvoiceIssuer,
    PricingInputsLoader,
    InvoiceActions,
    InvoiceReader,
    InvoiceExtensions,
    InvoiceStatusUpdater,
    InvoiceEvents,
  ],
})
export class InvoicesModule {}
