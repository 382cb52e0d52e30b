import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject, ParameterObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ActionCatalog, DeclaredAction } from 'src/core/actions/action-catalog';
import { ENVELOPES, envelopeRef, ErrorEnvelopeSchema, EnvelopeSchema } from './envelope.schema';
import { RECORDED_EXAMPLES } from './recorded-examples';

export const OPENAPI_JSON_PATH = 'api/v3/_openapi.json';
export const OPENAPI_UI_PATH = 'api/docs';

const API = '/api/v3/';

/** SPEC "Queries": the list parameters every collection GET takes. */
const LIST_PARAMETERS: ParameterObject[] = [
  {
    name: 'where',
    in: 'query',
    required: false,
    schema: { type: 'string' },
    example: 'company:EQUALS:Acme',
    description: '`field:OPERATOR:value`, several joined by commas',
  },
  {
    name: 'order',
    in: 'query',
    required: false,
    schema: { type: 'string' },
    example: 'customer_id:DESC',
    description: '`field:ASC|DESC`',
  },
  { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
  { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500 } },
];

const REF_PARAMETER: ParameterObject = {
  name: 'ref',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  example: '1',
  description: 'the id, `external_key:<key>` or `token:<token>`',
};

const ERROR_RESPONSE = {
  description: 'the error envelope (400 bad input, 401, 404, 429, ...)',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeSchema' } } },
};

/** The tag every operation of a path carries: its resource (`/api/v3/customer/...` -> `customer`). */
function tagOf(path: string): string {
  const rest = path.startsWith(API) ? path.slice(API.length) : path.slice(1);
  return rest.split(/[/?]/)[0] || 'health';
}

/**
 * The OpenAPI 3 description, from the controllers, the DTOs their handlers take and the
 * ActionCatalog: each operation gets a summary, its resource's tag, HTTP Basic on /api/v3,
 * the list parameters on collection GETs, the envelope its route answers (typed by kind:
 * an id after a create or update, a count, a list, an object) and the error envelope; each
 * `?action=` is an operation of its own, `POST /api/v3/<resource>/{ref}?action=<name>`,
 * with the body class its action names.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const actions = app.get(ActionCatalog).declared();
  const bodies = [...new Set(actions.flatMap((a) => (a.body ? [a.body] : [])))];
  const config = new DocumentBuilder()
    .setTitle('Billing API')
    .setDescription(
      'Recurring billing and invoicing, `/api/v3` (see SPEC.md). Every answer is the JSON envelope. ' +
        'An action is `POST /api/v3/<resource>/<ref>?action=<name>` (or `.../_action/<name>`); each is listed ' +
        'as an operation of its own.',
    )
    .setVersion('3')
    .addBasicAuth({ type: 'http', scheme: 'basic' }, 'basic')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [EnvelopeSchema, ErrorEnvelopeSchema, ...bodies],
  });
  document.components ??= {};
  Object.assign((document.components.schemas ??= {}), ENVELOPES);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      const operation = item[method];
      if (operation) completeOperation(path, method, operation, actions);
    }
  }
  for (const action of actions) addActionOperation(document, action);
  document.tags = tagsOf(document);
  return document;
}

function completeOperation(
  path: string,
  method: 'get' | 'post' | 'put' | 'delete',
  operation: OperationObject,
  actions: DeclaredAction[],
): void {
  const api = path.startsWith(API);
  const tag = tagOf(path);
  operation.tags = [tag];
  operation.summary ||= summaryFromHandler(operation.operationId, tag) ?? fallbackSummary(method, path);
  operation.security = api ? [{ basic: [] }] : [];
  const lastSegment = path.split('/').pop() ?? '';
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  // `@Query() query` is the where/order/offset/limit family, written out below.
  const named = parameters
    .filter((p) => !(p.in === 'query' && (p.name === 'query' || p.name === '')))
    .map((p) => (p.in === 'path' && p.name === 'ref' ? REF_PARAMETER : p));
  if (api && method === 'get' && !lastSegment.startsWith('{') && !lastSegment.startsWith('_')) {
    named.push(...LIST_PARAMETERS);
  }
  if (api && method === 'get' && lastSegment === '_count') named.push(LIST_PARAMETERS[0]);
  const deduped = dedupe(named);
  operation.parameters = deduped;
  const action = deduped.find((p) => p.in === 'query' && p.name === 'action');
  const onObject = lastSegment === '{ref}' && method === 'post';
  if (action || onObject || lastSegment === '{action}') describeDispatch(path, operation, actions, tag, onObject);
  exampleOf(`${method.toUpperCase()} ${path}`, operation);
  if (!api) return;
  // A read that names its response class (ResourceController's `response`) keeps its typed envelope.
  const typed = Object.entries(operation.responses ?? {}).find(
    ([code, response]) => code.startsWith('2') && response !== undefined && 'content' in response && response.content,
  );
  const [code, envelope] = successOf(method, path, operation);
  operation.responses = {
    ...(typed
      ? { [typed[0]]: typed[1] }
      : {
          [code]: { description: 'the envelope', content: { 'application/json': { schema: envelopeRef(envelope) } } },
        }),
    default: ERROR_RESPONSE,
  };
}

/**
 * The route that dispatches `?action=` (or `/_action/{action}`): its `action` parameter
 * lists the resource's actions, and its body is any of theirs.
 */
function describeDispatch(
  path: string,
  operation: OperationObject,
  actions: DeclaredAction[],
  tag: string,
  onObject: boolean,
): void {
  const collection = !path.includes('{ref}');
  const mine = actions.filter((a) => a.resource === tag && a.collection === collection);
  if (mine.length === 0) return;
  const names = mine.map((a) => a.name);
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  const existing = parameters.find((p) => p.name === 'action');
  const described: ParameterObject = {
    name: 'action',
    in: path.endsWith('{action}') ? 'path' : 'query',
    required: onObject || path.endsWith('{action}'),
    schema: { type: 'string', enum: names },
    description: 'the action; each is also described as an operation of its own (`?action=<name>`)',
  };
  operation.parameters = existing
    ? parameters.map((p) => (p === existing ? described : p))
    : [...parameters, described];
  const schemas = [...new Set(mine.flatMap((a) => (a.body ? [a.body.name] : [])))];
  if (schemas.length && !collection) {
    operation.requestBody = {
      required: false,
      content: {
        'application/json': { schema: { oneOf: schemas.map((name) => ({ $ref: `#/components/schemas/${name}` })) } },
      },
    };
  }
}

/** `POST /api/v3/<resource>/{ref}?action=<name>`, or `POST /api/v3/<resource>?action=<name>` for a collection's. */
function addActionOperation(document: OpenAPIObject, action: DeclaredAction): void {
  const path = `${API}${action.resource}${action.collection ? '' : '/{ref}'}?action=${action.name}`;
  const operation: OperationObject = {
    operationId: `${action.resource}_${action.name}`,
    summary: action.aliasOf ? `${action.summary} (older name of ${action.aliasOf})` : action.summary,
    tags: [action.resource],
    security: [{ basic: [] }],
    parameters: action.collection ? [] : [REF_PARAMETER],
    responses: {
      200: { description: 'the envelope', content: { 'application/json': { schema: envelopeRef('ActionEnvelope') } } },
      default: ERROR_RESPONSE,
    },
  };
  if (action.body) {
    operation.requestBody = {
      required: false,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${action.body.name}` } } },
    };
  }
  exampleOf(`POST ${path}`, operation);
  document.paths[path] = { post: operation };
}

/** The success code and typed envelope a route answers (SPEC "Conventions"). */
function successOf(method: string, path: string, operation: OperationObject): [string, string] {
  const last = path.split('/').pop() ?? '';
  const resourceRoute = /^\/api\/v3\/[a-z_]+(\/\{ref\}(\/_revision)?|\/_count)?$/.test(path);
  const declared = Object.keys(operation.responses ?? {}).find((code) => code.startsWith('2')) ?? '200';
  if (method === 'put') return ['202', 'IdEnvelope'];
  if (method === 'delete') return ['200', 'TrueEnvelope'];
  if (method === 'get') {
    if (last === '_count') return ['200', 'CountEnvelope'];
    if (last === '_revision' || (resourceRoute && !last.startsWith('{'))) return ['200', 'ListEnvelope'];
    if (resourceRoute) return ['200', 'ObjectEnvelope'];
    return [declared, 'ObjectEnvelope'];
  }
  if (method === 'post' && resourceRoute && !last.startsWith('{')) return ['201', 'IdEnvelope'];
  return ['200', 'ActionEnvelope'];
}

/**
 * `TaxesController_listTaxes` -> "List taxes", `..._findOne` on `/creditcard` -> "Find one
 * creditcard": the handler's name, for routes without a summary of their own.
 */
function summaryFromHandler(operationId: string | undefined, tag: string): string | undefined {
  const handler = operationId?.split('_').slice(1).join('_');
  if (!handler || !/^[a-zA-Z]+$/.test(handler)) return undefined;
  const words = handler.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const named = /[A-Z]/.test(handler.slice(1)) && !/(One|By)$/.test(handler) ? words : `${words} ${tag}`;
  return named.charAt(0).toUpperCase() + named.slice(1);
}

function fallbackSummary(method: string, path: string): string {
  const tag = tagOf(path);
  const last = path.split('/').pop() ?? '';
  if (method === 'get' && last === '_count') return `Count ${tag}`;
  if (method === 'get' && last.startsWith('{')) return `Read one ${tag}`;
  if (method === 'get') return path.startsWith(API) ? `List ${tag}` : `Page ${path}`;
  if (method === 'post' && last.startsWith('{')) return `Run an action on one ${tag}`;
  if (method === 'post') return `Create or submit ${tag}`;
  if (method === 'put') return `Update one ${tag}`;
  return `Delete one ${tag}`;
}

/** A recorded request body (recorded-traffic.txt) as the operation's example. */
function exampleOf(key: string, operation: OperationObject): void {
  const recorded = RECORDED_EXAMPLES[key];
  const body = operation.requestBody as { content?: Record<string, { example?: unknown }> } | undefined;
  const json = body?.content?.['application/json'];
  if (recorded && json) json.example = recorded.body;
}

/** The resources of SPEC "Endpoints" first, in its order, each tag with what it holds. */
const TAGS: Record<string, string> = {
  customer: 'Customers',
  user: 'Contacts (portal users) of a customer',
  invoice: 'Invoices and their actions',
  transaction: 'Payments, refunds and credit memos',
  quote: 'Quotes',
  package: 'Subscriptions',
  item: 'Items and their prices (tiersets)',
  usage: 'Usage of metered subscription lines',
  _bulk: 'Several calls in one request',
  creditcard: 'Stored cards',
  ach: 'Stored bank accounts',
  tokenized: 'Stored gateway tokens',
  tax: 'Taxes',
  tax_group: 'Tax groups',
  _resthook: 'Webhook subscriptions',
  webhook_log: 'Webhook deliveries',
  _analytics: 'MRR history and revenue reports',
  _clock: 'The test clock (TEST_CLOCK=true)',
  teapot: "I'm a teapot",
};

/** Every tag: SPEC's resources first, then the other API tags, then the pages; the teapot last. */
function tagsOf(document: OpenAPIObject): { name: string; description?: string }[] {
  const api = new Set<string>();
  const pages = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item as Record<string, OperationObject>)) {
      for (const tag of operation.tags ?? []) (path.startsWith(API) ? api : pages).add(tag);
    }
  }
  const known = Object.keys(TAGS);
  const rank = (tag: string): number => (tag === 'teapot' ? 3 : known.includes(tag) ? 0 : api.has(tag) ? 1 : 2);
  const position = (tag: string): number => (known.includes(tag) ? known.indexOf(tag) : 0);
  return [...new Set([...api, ...pages])]
    .sort((a, b) => rank(a) - rank(b) || position(a) - position(b) || a.localeCompare(b))
    .map((name) => (TAGS[name] ? { name, description: TAGS[name] } : { name }));
}

function dedupe(parameters: ParameterObject[]): ParameterObject[] {
  const seen = new Set<string>();
  return parameters.filter((p) => {
    const key = `${p.in}:${p.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `GET /api/v3/_openapi.json` and the browsable page at `/api/docs`, without a credential. */
export function serveOpenApi(app: INestApplication): void {
  let document: OpenAPIObject | undefined;
  SwaggerModule.setup(OPENAPI_UI_PATH, app, () => (document ??= buildOpenApiDocument(app)), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
  });
}
