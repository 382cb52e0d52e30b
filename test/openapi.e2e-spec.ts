import SwaggerParser from '@apidevtools/swagger-parser';
import type express from 'express';
import { createTestApp, TestApp } from './support/test-app';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route the Express app answers (Nest's controllers), as `METHOD /path/{param}`. */
function servedRoutes(t: TestApp): string[] {
  const http = t.app.getHttpAdapter().getInstance() as express.Express & { router: { stack: RouterLayer[] } };
  const routes: string[] = [];
  for (const layer of http.router.stack) {
    // The catch-all that answers unknown paths with the 400 envelope is no route of the API.
    if (!layer.route || layer.route.path.includes('{/*splat}')) continue;
    const path = layer.route.path.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/(.)\/$/, '$1');
    for (const method of Object.keys(layer.route.methods)) routes.push(`${method.toUpperCase()} ${path}`);
  }
  return routes;
}

describe('OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is served without a credential, validates as OpenAPI 3 and lists every route the server answers', async () => {
    const res = await t.http.get('/api/v3/_openapi.json').expect(200);
    const document = res.body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toMatch(/^3\./);
    await SwaggerParser.validate(structuredClone(document) as never);

    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const own = /^(GET|HEAD) \/api\/(docs|v3\/_openapi\.json)/;
    const served = servedRoutes(t).filter((route) => !own.test(route) && !route.startsWith('HEAD '));
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('describes POST /customer: its fields, the envelope, HTTP Basic and the list parameters', async () => {
    const document = (await t.http.get('/api/v3/_openapi.json').expect(200)).body;
    const create = document.paths['/api/v3/customer'].post;
    expect(create.security).toEqual([{ basic: [] }]);
    const bodyRef: string = create.requestBody.content['application/json'].schema.$ref;
    const body = document.components.schemas[bodyRef.split('/').pop() as string];
    expect(body.properties.company).toMatchObject({ type: 'string', maxLength: 255 });
    expect(body.properties.terms_id).toMatchObject({ type: 'integer' });
    expect(create.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/EnvelopeSchema');
    expect(create.responses.default.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ErrorEnvelopeSchema',
    );
    const listParams = document.paths['/api/v3/customer'].get.parameters.map((p: { name: string }) => p.name);
    expect(listParams).toEqual(expect.arrayContaining(['where', 'order', 'offset', 'limit']));
    expect(document.paths['/api/v3/customer/{ref}'].post.parameters.map((p: { name: string }) => p.name)).toContain(
      'action',
    );
    expect(document.components.securitySchemes.basic).toEqual({ type: 'http', scheme: 'basic' });
  });

  it('has a browsable page at /api/docs without a credential', async () => {
    const res = await t.http.get('/api/docs').redirects(1).expect(200);
    expect(res.text).toContain('swagger-ui');
  });
});
