import { Module } from '@nestjs/common';
import { CustomersModule } from 'src/customers/customers.module';
import { PaymentsModule } from 'src/payments/payments.module';
import { BankAccountsService } from './bank-accounts.service';
import { CreditCardsService } from './credit-cards.service';
import { CustomerPaymethodsDeletion } from './customer-paymethods-deletion';
import { PaymethodPresenter } from './paymethod.presenter';
import { BankAccountsController, CreditCardsController, TokenizedController } from './paymethods.controllers';
import { SetPayMethodAction } from './set-paymethod.action';
import { TokenizedService } from './tokenized.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CreditCard } from './entities/credit-card.entity';
import { AchAccount } from './entities/ach-account.entity';
import { TokenizedPaymethod } from './entities/tokenized-paymethod.entity';

@Module({
  imports: [TypeOrmModule.forFeature([CreditCard, AchAccount, TokenizedPaymethod]), CustomersModule, PaymentsModule],
  controllers: [CreditCardsController, BankAccountsController, TokenizedController],
  providers: [
    CreditCardsService,
    BankAccountsService,
    TokenizedService,
    PaymethodPresenter,
    SetPayMethodAction,
    CustomerPaymethodsDeletion,
  ],
  exports: [CreditCardsService, BankAccountsService, TokenizedService, PaymethodPresenter],
})
export class PaymethodsModule {}
