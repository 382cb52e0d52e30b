import { Injectable } from '@nestjs/common';
import { RequestContext } from 'src/core/context/request-context';
import { DtoClass, validateBody } from 'src/core/validation/validate-body';
import { pickAction } from './actions';

/**
 * How an action reads its body. `dto`: the body goes through `validateBody` against that
 * class before the action runs, which receives the checked DTO. `described`: the action
 * reads the body itself (a parser whose answers predate the DTOs: mail overrides, a payment
 * with a card in it) and the class only describes it in the OpenAPI document. `none`: the
 * action takes no body (the handler refuses fields in its own words).
 */
export type ActionBody<D> = { dto: DtoClass<D> } | { described: DtoClass<object> } | { none: true };

export interface ActionDeclaration<D> {
  /** One line for the OpenAPI operation. */
  summary: string;
  body: ActionBody<D>;
}

/** An action as the OpenAPI document lists it. */
export interface DeclaredAction {
  resource: string;
  name: string;
  /** On the collection (`POST /<resource>?action=`) rather than one object. */
  collection: boolean;
  summary: string;
  /** The class the body is checked against or described by; none when the action takes no body. */
  body?: DtoClass<object>;
  /** Another name of `aliasOf` (the older API's names). */
  aliasOf?: string;
}

type ObjectRun<D> = (ref: string, dto: D, ctx: RequestContext) => Promise<unknown>;
type CollectionRun<D> = (dto: D, ctx: RequestContext) => Promise<unknown>;

interface Entry {
  declared: DeclaredAction;
  run: (ref: string | undefined, body: unknown, ctx: RequestContext) => Promise<unknown>;
}

function checkerOf<D>(body: ActionBody<D>): (raw: unknown) => D {
  if ('dto' in body) return (raw) => validateBody(body.dto as DtoClass<D & object>, raw);
  return (raw) => raw as D;
}

function describedClass<D>(body: ActionBody<D>): DtoClass<object> | undefined {
  if ('dto' in body) return body.dto as DtoClass<object>;
  if ('described' in body) return body.described;
  return undefined;
}

/**
 * Every `?action=` of the API, declared once by the module that implements it: its name,
 * its body class and a summary. Controllers dispatch through it (`runObject`,
 * `runCollection`), so a body is checked against the class its action names before the
 * action runs, and the OpenAPI document lists one operation per action from `declared()`.
 * A module may declare actions on another's resource (payments declare `pay` on invoices)
 * without the host knowing it: declarations are made in the declaring provider's
 * constructor, and looked up by name at request time.
 */
@Injectable()
export class ActionCatalog {
  private readonly objects = new Map<string, Record<string, Entry>>();
  private readonly collections = new Map<string, Record<string, Entry>>();

  object<D>(resource: string, name: string, declaration: ActionDeclaration<D>, run: ObjectRun<D>): void {
    const check = checkerOf(declaration.body);
    this.put(this.objects, resource, name, declaration, false, (ref, raw, ctx) => run(ref!, check(raw), ctx));
  }

  collection<D>(resource: string, name: string, declaration: ActionDeclaration<D>, run: CollectionRun<D>): void {
    const check = checkerOf(declaration.body);
    this.put(this.collections, resource, name, declaration, true, (_ref, raw, ctx) => run(check(raw), ctx));
  }

  /** `alias` runs the object action `of` (an older API's name for it). */
  objectAlias(resource: string, alias: string, of: string): void {
    const actions = this.objects.get(resource) ?? {};
    const target = actions[of];
    if (!target) throw new Error(`No action "${of}" on ${resource} to alias as "${alias}".`);
    actions[alias] = { declared: { ...target.declared, name: alias, aliasOf: of }, run: target.run };
  }

  runObject(resource: string, name: unknown, ref: string, body: unknown, ctx: RequestContext): Promise<unknown> {
    return pickAction(this.objects.get(resource) ?? {}, resource, name).run(ref, body, ctx);
  }

  runCollection(resource: string, name: unknown, body: unknown, ctx: RequestContext): Promise<unknown> {
    return pickAction(this.collections.get(resource) ?? {}, resource, name).run(undefined, body, ctx);
  }

  hasCollectionActions(resource: string): boolean {
    return Object.keys(this.collections.get(resource) ?? {}).length > 0;
  }

  declared(): DeclaredAction[] {
    return [...this.collections.values(), ...this.objects.values()].flatMap((actions) =>
      Object.values(actions).map((entry) => entry.declared),
    );
  }

  private put<D>(
    table: Map<string, Record<string, Entry>>,
    resource: string,
    name: string,
    declaration: ActionDeclaration<D>,
    collection: boolean,
    run: Entry['run'],
  ): void {
    let actions = table.get(resource);
    if (!actions) table.set(resource, (actions = {}));
    if (Object.prototype.hasOwnProperty.call(actions, name)) {
      throw new Error(`Action "${name}" on ${resource} is declared twice.`);
    }
    const body = describedClass(declaration.body);
    actions[name] = { declared: { resource, name, collection, summary: declaration.summary, body }, run };
  }
}
