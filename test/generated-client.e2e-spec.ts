import { execFile } from 'child_process';
import { mkdirSync, writeFileSync } from 'fs';
import type { AddressInfo } from 'net';
import { dirname, join } from 'path';
import { promisify } from 'util';
import { AUTH, createTestApp, TestApp } from './support/test-app';

const run = promisify(execFile);

/** A package's folder (their `exports` maps hide the bin files from require.resolve). */
const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));

/** test/client/tour.ts, as this file sees it. */
type Tour = (
  baseUrl: string,
  authorization: string,
  runId: string,
) => Promise<{
  customerId: number;
  subscriptionId: number;
  paymentId: number;
  invoiceBefore: unknown;
  invoiceAfter: unknown;
  customersFound: number[];
}>;
const CLIENT = join(__dirname, 'client');
const GENERATED = join(CLIENT, 'generated');

/**
 * The API as an integrator meets it: a TypeScript client generated from the served OpenAPI
 * document (openapi-typescript), a small program written against it (test/client/tour.ts,
 * openapi-fetch) type-checked strictly against the fresh types, then run against this test
 * server: a customer, an item with tiers, an invoice with lines, a subscription, the invoice
 * paid by card, a list filtered with `where`. CI runs it on both databases (`npm test`).
 */
describe('client generated from the OpenAPI document', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await t.close();
  });

  it('generates, type-checks and runs the program', async () => {
    const document = (await t.http.get('/api/v3/_openapi.json').expect(200)).body as object;
    mkdirSync(GENERATED, { recursive: true });
    const source = join(GENERATED, 'openapi.json');
    writeFileSync(source, JSON.stringify(document));
    const cli = join(packageDir('openapi-typescript'), 'bin', 'cli.js');
    await run(process.execPath, [cli, source, '-o', join(GENERATED, 'billing-api.d.ts')]);

    // Strict type-check of the program against the types just generated (a compile error fails
    // here), compiled to generated/out.
    const tsc = join(packageDir('typescript'), 'bin', 'tsc');
    const typeErrors = await run(process.execPath, [tsc, '-p', join(CLIENT, 'tsconfig.json')]).then(
      () => '',
      (error: Error & { stdout?: string }) => error.stdout || error.message,
    );
    expect(typeErrors).toBe('');

    // The program as tsc compiled it above (not by ts-jest, nor by the project's type-check,
    // which runs before any client is generated).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { tour } = require(join(GENERATED, 'out', 'tour.js')) as { tour: Tour };
    const result = await tour(baseUrl, AUTH, 'c1');

    // 12 units on graduated tiers: 10 x 5.00 + 2 x 4.00 = 58.00, no tax.
    expect(result.invoiceBefore).toEqual({ total: 58, balance: 58, status: 'open-unpaid' });
    // The card payment takes the whole balance: 58.00 - 58.00 = 0.
    expect(result.invoiceAfter).toEqual({ balance: 0, status: 'closed-paid' });
    expect(result.paymentId).toBeGreaterThan(0);
    expect(result.subscriptionId).toBeGreaterThan(0);
    expect(result.customersFound).toEqual([result.customerId]);
    const subscription = (await t.get(`/api/v3/package/${result.subscriptionId}`).expect(200)).body.response;
    expect(subscription).toMatchObject({ customer_id: result.customerId, paycycle: 'mon' });
  }, 180_000);
});
