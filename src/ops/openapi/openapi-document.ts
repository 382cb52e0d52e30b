import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject, ParameterObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { EnvelopeSchema, ErrorEnvelopeSchema } from './envelope.schema';

export const OPENAPI_JSON_PATH = 'api/v3/_openapi.json';
export const OPENAPI_UI_PATH = 'api/docs';

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
  { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
];

const ACTION_PARAMETER: ParameterObject = {
  name: 'action',
  in: 'query',
  required: false,
  schema: { type: 'string' },
  description: 'an object action, the same as POST …/_action/<action>',
};

/**
 * The OpenAPI 3 description, from the controllers and the DTOs their handlers take; every
 * operation is completed with what the wire conventions say for all of them: the envelope
 * and error envelope, HTTP Basic on /api/v3, the list parameters on collection GETs.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Billing API')
    .setDescription('Recurring billing and invoicing, `/api/v3` (see SPEC.md). Every answer is the JSON envelope.')
    .setVersion('3')
    .addBasicAuth({ type: 'http', scheme: 'basic' }, 'basic')
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [EnvelopeSchema, ErrorEnvelopeSchema] });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      const operation = item[method];
      if (operation) completeOperation(path, method, operation);
    }
  }
  return document;
}

function completeOperation(path: string, method: string, operation: OperationObject): void {
  const api = path.startsWith('/api/v3/');
  operation.security = api ? [{ basic: [] }] : [];
  const lastSegment = path.split('/').pop() ?? '';
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  // `@Query() query` is the where/order/offset/limit family, written out below.
  const named = parameters.filter((p) => !(p.in === 'query' && (p.name === 'query' || p.name === '')));
  if (api && method === 'get' && !lastSegment.startsWith('{')) named.push(...LIST_PARAMETERS);
  operation.parameters = dedupe(named);
  if (!api) return;
  if (method === 'post' && lastSegment.startsWith('{') && !named.some((p) => p.name === 'action')) {
    operation.parameters.push(ACTION_PARAMETER);
  }
  const success = Object.keys(operation.responses ?? {}).find((code) => code.startsWith('2')) ?? '200';
  operation.responses = {
    [success]: {
      description: 'the envelope',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/EnvelopeSchema' } } },
    },
    default: {
      description: 'the error envelope (400 bad input, 401, 404, 429, ...)',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeSchema' } } },
    },
  };
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
