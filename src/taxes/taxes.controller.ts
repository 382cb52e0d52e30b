import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created } from 'src/core/envelope/api-result';
import { DtoPipe } from 'src/core/validation/dto.pipe';
import { WireFormat } from 'src/core/wire/wire-format';
import { CreateTaxDto, CreateTaxGroupDto } from './dto/tax-fields.dto';
import { TaxesService } from './taxes.service';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';
import { AnswersWith } from 'src/core/envelope/envelope-schema';
import { WireTax, WireTaxGroup } from './wire-tax';

/** `/tax` (name, rate in percent) and `/tax_group` (a named group applying one tax; items point at groups). */
@Controller('api/v3')
export class TaxesController {
  constructor(
    private readonly taxes: TaxesService,
    private readonly wire: WireFormat,
  ) {}

  @Get('tax')
  @AnswersWith(WireTax, true)
  listTaxes(): Promise<WireTax[]> {
    return this.taxes.listTaxes();
  }

  @Get('tax/:id')
  @AnswersWith(WireTax)
  oneTax(@Param('id') id: string): Promise<WireTax> {
    return this.taxes.oneTax(id);
  }

  @Post('tax')
  @NoCollectionActions()
  async createTax(@Body(DtoPipe) dto: CreateTaxDto, @Ctx() ctx: RequestContext): Promise<ApiResult> {
    const id = await this.taxes.createTax(ctx, dto);
    return created(this.wire.apiUrl('tax', id), id);
  }

  @Get('tax_group')
  @AnswersWith(WireTaxGroup, true)
  listGroups(): Promise<WireTaxGroup[]> {
    return this.taxes.listGroups();
  }

  @Get('tax_group/:id')
  @AnswersWith(WireTaxGroup)
  oneGroup(@Param('id') id: string): Promise<WireTaxGroup> {
    return this.taxes.oneGroup(id);
  }

  @Post('tax_group')
  @NoCollectionActions()
  async createGroup(@Body(DtoPipe) dto: CreateTaxGroupDto, @Ctx() ctx: RequestContext): Promise<ApiResult> {
    const id = await this.taxes.createGroup(ctx, dto);
    return created(this.wire.apiUrl('tax_group', id), id);
  }
}
