import { Controller } from '@nestjs/common';
import { WireFormat } from 'src/core/wire/wire-format';
import { BankAccountsService } from './bank-accounts.service';
import { CreditCardsService } from './credit-cards.service';
import { BANK_ACCOUNT_READ_ONLY, CreateBankAccountDto } from './dto/bank-account-fields.dto';
import { CARD_READ_ONLY, CreateCreditCardDto } from './dto/card-fields.dto';
import { CreateTokenizedDto } from './dto/create-tokenized.dto';
import { PaymethodResourceController } from './paymethod-resource.controller';
import { TokenizedService } from './tokenized.service';

@Controller('api/v3/creditcard')
export class CreditCardsController extends PaymethodResourceController<CreateCreditCardDto> {
  protected readonly path = 'creditcard';
  protected readonly dto = CreateCreditCardDto;
  protected readonly readOnly = CARD_READ_ONLY;

  constructor(service: CreditCardsService, wire: WireFormat) {
    super(service, wire);
  }
}

@Controller('api/v3/ach')
export class BankAccountsController extends PaymethodResourceController<CreateBankAccountDto> {
  protected readonly path = 'ach';
  protected readonly dto = CreateBankAccountDto;
  protected readonly readOnly = BANK_ACCOUNT_READ_ONLY;

  constructor(service: BankAccountsService, wire: WireFormat) {
    super(service, wire);
  }
}

@Controller('api/v3/tokenized')
export class TokenizedController extends PaymethodResourceController<CreateTokenizedDto> {
  protected readonly path = 'tokenized';
  protected readonly dto = CreateTokenizedDto;
  protected readonly readOnly = ['tokenized_id'];

  constructor(service: TokenizedService, wire: WireFormat) {
    super(service, wire);
  }
}
