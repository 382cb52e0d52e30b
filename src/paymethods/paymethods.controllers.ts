import { Body, Controller, Post } from '@nestjs/common';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult } from 'src/core/envelope/api-result';
import { DtoPipe } from 'src/core/validation/dto.pipe';
import { WireFormat } from 'src/core/wire/wire-format';
import { BankAccountsService } from './bank-accounts.service';
import { CreditCardsService } from './credit-cards.service';
import { CreateBankAccountDto } from './dto/bank-account-fields.dto';
import { CreateCreditCardDto } from './dto/card-fields.dto';
import { CreateTokenizedDto } from './dto/create-tokenized.dto';
import { PaymethodResourceController } from './paymethod-resource.controller';
import { TokenizedService } from './tokenized.service';
import { WireBankAccount, WireCreditCard, WireTokenized } from './wire-paymethod';

const CardRoutes = PaymethodResourceController(WireCreditCard);
const BankAccountRoutes = PaymethodResourceController(WireBankAccount);
const TokenizedRoutes = PaymethodResourceController(WireTokenized);

@Controller('api/v3/creditcard')
export class CreditCardsController extends CardRoutes<CreateCreditCardDto> {
  protected readonly path = 'creditcard';

  constructor(service: CreditCardsService, wire: WireFormat) {
    super(service, wire);
  }

  @Post()
  @NoCollectionActions()
  create(
    @Body(DtoPipe) dto: CreateCreditCardDto,
    @Body() body: Record<string, unknown>,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    return this.createFrom(ctx, dto, body);
  }
}

@Controller('api/v3/ach')
export class BankAccountsController extends BankAccountRoutes<CreateBankAccountDto> {
  protected readonly path = 'ach';

  constructor(service: BankAccountsService, wire: WireFormat) {
    super(service, wire);
  }

  @Post()
  @NoCollectionActions()
  create(
    @Body(DtoPipe) dto: CreateBankAccountDto,
    @Body() body: Record<string, unknown>,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    return this.createFrom(ctx, dto, body);
  }
}

@Controller('api/v3/tokenized')
export class TokenizedController extends TokenizedRoutes<CreateTokenizedDto> {
  protected readonly path = 'tokenized';

  constructor(service: TokenizedService, wire: WireFormat) {
    super(service, wire);
  }

  @Post()
  @NoCollectionActions()
  create(
    @Body(DtoPipe) dto: CreateTokenizedDto,
    @Body() body: Record<string, unknown>,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    return this.createFrom(ctx, dto, body);
  }
}
