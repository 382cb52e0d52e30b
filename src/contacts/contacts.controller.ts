import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ObjectAction, pickAction } from 'src/core/actions/actions';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created, updated } from 'src/core/envelope/api-result';
import { RevisionService } from 'src/core/revisions/revision.service';
import { DtoPipe } from 'src/core/validation/dto.pipe';
import { validateBody } from 'src/core/validation/validate-body';
import { WireFormat } from 'src/core/wire/wire-format';
import { ContactsService } from './contacts.service';
import { LoginUrlDto, SetPasswordDto } from './dto/contact-actions.dto';
import { CreateContactDto, UpdateContactDto } from './dto/contact-fields.dto';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';

@Controller('api/v3/user')
export class ContactsController {
  private readonly password: ObjectAction = (ref, body, ctx) =>
    this.contacts.password(ctx, ref, validateBody(SetPasswordDto, body).password);
  private readonly loginUrl: ObjectAction = (ref, body, ctx) =>
    this.contacts.loginUrl(ctx, ref, validateBody(LoginUrlDto, body).destination);
  private readonly actions: Record<string, ObjectAction> = {
    password: this.password,
    getLoginURL: this.loginUrl,
    // The older API's names, still sent by its client libraries (DESIGN §4 Actions).
    reset_password: this.password,
    login: this.loginUrl,
  };

  constructor(
    private readonly contacts: ContactsService,
    private readonly revisions: RevisionService,
    private readonly wire: WireFormat,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    return this.contacts.list(query);
  }

  @Get('_count')
  count(@Query() query: Record<string, unknown>): Promise<number> {
    return this.contacts.count(query);
  }

  @Get(':ref')
  findOne(@Param('ref') ref: string): Promise<Record<string, unknown>> {
    return this.contacts.findOne(ref);
  }

  @Get(':ref/_revision')
  async revisionsOf(@Param('ref') ref: string, @Query('limit') limit: unknown): Promise<Record<string, unknown>[]> {
    return this.revisions.list('user', await this.contacts.idOf(ref), limit);
  }

  @Post()
  @NoCollectionActions()
  async create(
    @Body(DtoPipe) dto: CreateContactDto,
    @Body() body: Record<string, unknown>,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    const id = await this.contacts.create(ctx, dto, body);
    return created(this.wire.apiUrl('user', id), id);
  }

  @Put(':ref')
  async update(
    @Param('ref') ref: string,
    @Body(DtoPipe) dto: UpdateContactDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    const id = await this.contacts.update(ctx, ref, dto);
    return updated(this.wire.apiUrl('user', id), id);
  }

  @Delete(':ref')
  remove(@Param('ref') ref: string, @Ctx() ctx: RequestContext): Promise<true> {
    return this.contacts.remove(ctx, ref);
  }

  @Post(':ref')
  action(
    @Param('ref') ref: string,
    @Query('action') action: unknown,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.actions, 'user', action)(ref, body, ctx);
  }

  @Post(':ref/_action/:action')
  actionByPath(
    @Param('ref') ref: string,
    @Param('action') action: string,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.actions, 'user', action)(ref, body, ctx);
  }
}
