import { applyDecorators, Body, Delete, Get, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation } from '@nestjs/swagger';
import { ActionCatalog } from 'src/core/actions/action-catalog';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created, updated } from 'src/core/envelope/api-result';
import { AnswersWith } from 'src/core/envelope/envelope-schema';
import { RevisionService } from 'src/core/revisions/revision.service';
import { DtoPipe } from 'src/core/validation/dto.pipe';
import { DtoClass, isPlainObject, validateBody } from 'src/core/validation/validate-body';
import { WireFormat } from 'src/core/wire/wire-format';

/** What every resource's service answers for the read routes. */
export interface ResourceReads {
  list(query: Record<string, unknown>): Promise<object[]>;
  count(query: Record<string, unknown>): Promise<number>;
  findOne(ref: string): Promise<object>;
  idOf(ref: string): Promise<number>;
}

/**
 * The writes the routes call when a declaration names them: a service's own `create`,
 * `update` and `remove` (each may take fewer arguments). A subclass whose service names them
 * otherwise overrides `createObject`, `updateObject` or `removeObject`.
 */
export interface ResourceWrites {
  create(ctx: RequestContext, dto: never, body: Record<string, unknown>): Promise<number>;
  update(ctx: RequestContext, ref: string, dto: never, body: Record<string, unknown>): Promise<number>;
  remove(ctx: RequestContext, ref: string): Promise<boolean>;
}

/**
 * A resource's standard routes (SPEC "Conventions"), declared once: list, `_count`, read by
 * reference, `_revision`, and, when named here, create, update, delete and the
 * `?action=` actions of the ActionCatalog.
 */
export interface ResourceDeclaration {
  /** The path segment under /api/v3, also the revisions' context (`package`). */
  resource: string;
  /** For summaries: `subscription`, `subscriptions`. */
  noun: string;
  plural: string;
  /** POST /<resource>: the body's DTO; the subclass implements `createObject`. */
  create?: DtoClass<object>;
  /** The create's summary, when it is more than "Create a <noun>". */
  createSummary?: string;
  /** PUT /<resource>/<ref>: the body's DTO; the subclass implements `updateObject`. */
  update?: DtoClass<object>;
  /** DELETE /<resource>/<ref>: the subclass implements `removeObject`. */
  remove?: boolean;
  /** POST /<resource>/<ref>?action= and /_action/<name>. */
  actions?: boolean;
  /**
   * POST /<resource>?action= and /<resource>/_action/<name> (`transaction?action=pay`). The
   * create body is then read after the action (`?action=` picks another body), so it goes
   * through `validateBody` rather than the pipe.
   */
  collectionActions?: boolean;
  /**
   * What a read answers, the presenter's response class (`@ApiProperty` fields): `one` for
   * a read by reference, `many` for a list's entries when they differ (an overview without
   * lines); the OpenAPI document types the envelope's `response` by them.
   */
  response?: { one: ResponseClass; many?: ResponseClass };
}

type ResponseClass = new () => object;

/**
 * Decorates `key` as TypeScript would: its parameters' decorators and their types (what
 * `emitDecoratorMetadata` records, read by the pipes and the OpenAPI explorer), then its own.
 * A parameter is a string unless named otherwise (a body, the request context: `Object`).
 */
function decorate(
  prototype: object,
  key: string,
  method: MethodDecorator[],
  params: ParameterDecorator[][],
  types: unknown[] = params.map(() => String),
): void {
  if (!Reflect.hasOwnMetadata('design:paramtypes', prototype, key)) {
    Reflect.defineMetadata('design:paramtypes', types, prototype, key);
  }
  const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!;
  params.forEach((decorators, index) => decorators.forEach((d) => d(prototype, key, index)));
  applyDecorators(...method)(prototype, key, descriptor);
}

/**
 * `class CustomersController extends ResourceController({...})`: the routes a declaration
 * names, each with its OpenAPI summary, decorated on a class made for that resource. The
 * subclass carries `@Controller('api/v3/<resource>')` and `@ApiTags`, passes its service as
 * `reads` and implements the write hooks it declared.
 */
export function ResourceController(d: ResourceDeclaration) {
  const a = `a ${d.noun}`.replace(/^a ([aeiou])/, 'an $1');

  abstract class ResourceRoutes {
    @Inject(WireFormat) protected readonly wire!: WireFormat;
    @Inject(RevisionService) protected readonly revisions!: RevisionService;
    @Inject(ActionCatalog) protected readonly actionCatalog!: ActionCatalog;

    /** The resource's service: its reads, and the writes the declaration names. */
    protected abstract readonly reads: ResourceReads & Partial<ResourceWrites>;

    /** The new object's id. */
    protected createObject(ctx: RequestContext, dto: object, body: Record<string, unknown>): Promise<number> {
      return this.write('create').create!(ctx, dto as never, body);
    }

    /** The updated object's id. */
    protected updateObject(
      ctx: RequestContext,
      ref: string,
      dto: object,
      body: Record<string, unknown>,
    ): Promise<number> {
      return this.write('update').update!(ctx, ref, dto as never, body);
    }

    protected removeObject(ctx: RequestContext, ref: string): Promise<boolean> {
      return this.write('remove').remove!(ctx, ref);
    }

    private write(name: keyof ResourceWrites): Partial<ResourceWrites> {
      if (!this.reads[name]) throw new Error(`${d.resource}: the service has no ${name}; override ${name}Object`);
      return this.reads;
    }

    list(query: Record<string, unknown>): Promise<object[]> {
      return this.reads.list(query);
    }

    count(query: Record<string, unknown>): Promise<number> {
      return this.reads.count(query);
    }

    findOne(ref: string): Promise<object> {
      return this.reads.findOne(ref);
    }

    async revisionsOf(ref: string, limit: unknown): Promise<object[]> {
      return this.revisions.list(d.resource, await this.reads.idOf(ref), limit);
    }

    async create(first: unknown, second: unknown, ctx: RequestContext): Promise<unknown> {
      // With collection actions the route takes (action, raw body); else (checked DTO, raw body).
      let dto = first as object;
      if (d.collectionActions) {
        if (first !== undefined) return this.actionCatalog.runCollection(d.resource, first, second, ctx);
        dto = validateBody(d.create!, second);
      }
      const id = await this.createObject(ctx, dto, isPlainObject(second) ? second : {});
      return created(this.wire.apiUrl(d.resource, id), id) satisfies ApiResult;
    }

    async update(ref: string, dto: object, body: unknown, ctx: RequestContext): Promise<ApiResult> {
      const id = await this.updateObject(ctx, ref, dto, isPlainObject(body) ? body : {});
      return updated(this.wire.apiUrl(d.resource, id), id);
    }

    remove(ref: string, ctx: RequestContext): Promise<boolean> {
      return this.removeObject(ctx, ref);
    }

    action(ref: string, action: unknown, body: unknown, ctx: RequestContext): Promise<unknown> {
      return this.actionCatalog.runObject(d.resource, action, ref, body, ctx);
    }

    actionByPath(ref: string, action: string, body: unknown, ctx: RequestContext): Promise<unknown> {
      return this.actionCatalog.runObject(d.resource, action, ref, body, ctx);
    }

    collectionAction(action: string, body: unknown, ctx: RequestContext): Promise<unknown> {
      return this.actionCatalog.runCollection(d.resource, action, body, ctx);
    }
  }

  const p = ResourceRoutes.prototype;
  const summary = (text: string): MethodDecorator => ApiOperation({ summary: text });
  const one = d.response?.one;
  const many = d.response?.many ?? one;
  const answers = (cls: ResponseClass | undefined, list: boolean): MethodDecorator[] =>
    cls ? [AnswersWith(cls, list)] : [];
  decorate(p, 'list', [Get(), summary(`List ${d.plural}`), ...answers(many, true)], [[Query()]], [Object]);
  decorate(p, 'count', [Get('_count'), summary(`Count ${d.plural}`)], [[Query()]], [Object]);
  if (d.collectionActions) {
    decorate(
      p,
      'collectionAction',
      [Post('_action/:action'), summary(`Run an action on the ${d.plural}`)],
      [[Param('action')], [Body()], [Ctx()]],
      [String, Object, Object],
    );
  }
  decorate(p, 'findOne', [Get(':ref'), summary(`Read ${a}`), ...answers(one, false)], [[Param('ref')]]);
  decorate(p, 'revisionsOf', [Get(':ref/_revision'), summary(`Revisions of ${a}`)], [[Param('ref')], [Query('limit')]]);
  if (d.create && d.collectionActions) {
    decorate(
      p,
      'create',
      [Post(), summary(d.createSummary ?? `Create ${a}`), ApiBody({ type: d.create })],
      [[Query('action')], [Body()], [Ctx()]],
      [String, Object, Object],
    );
  } else if (d.create) {
    Reflect.defineMetadata('design:paramtypes', [d.create, Object, Object], p, 'create');
    decorate(
      p,
      'create',
      [Post(), NoCollectionActions(), summary(d.createSummary ?? `Create ${a}`), ApiBody({ type: d.create })],
      [[Body(DtoPipe)], [Body()], [Ctx()]],
    );
  }
  if (d.update) {
    Reflect.defineMetadata('design:paramtypes', [String, d.update, Object, Object], p, 'update');
    decorate(
      p,
      'update',
      [Put(':ref'), summary(`Update ${a}`), ApiBody({ type: d.update })],
      [[Param('ref')], [Body(DtoPipe)], [Body()], [Ctx()]],
    );
  }
  if (d.remove) {
    decorate(p, 'remove', [Delete(':ref'), summary(`Delete ${a}`)], [[Param('ref')], [Ctx()]], [String, Object]);
  }
  if (d.actions) {
    decorate(
      p,
      'action',
      [Post(':ref'), summary(`Run an action on ${a} (?action=)`)],
      [[Param('ref')], [Query('action')], [Body()], [Ctx()]],
      [String, String, Object, Object],
    );
    decorate(
      p,
      'actionByPath',
      [Post(':ref/_action/:action'), summary(`Run an action on ${a} (by path)`)],
      [[Param('ref')], [Param('action')], [Body()], [Ctx()]],
      [String, String, Object, Object],
    );
  }
  const extra = [d.create, d.update].filter((dto): dto is DtoClass<object> => dto !== undefined);
  if (extra.length) ApiExtraModels(...extra)(ResourceRoutes);
  return ResourceRoutes;
}
