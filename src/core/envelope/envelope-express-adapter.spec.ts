import type { Response } from 'express';
import { created } from './api-result';
import { EnvelopeExpressAdapter } from './envelope-express-adapter';

/** Records what the adapter does to a response. */
function fakeResponse(): { res: Response; sent: { status?: number; headers: Record<string, string>; json?: unknown } } {
  const sent: { status?: number; headers: Record<string, string>; json?: unknown } = { headers: {} };
  const res = {
    status(code: number) {
      sent.status = code;
      return res;
    },
    setHeader(name: string, value: string) {
      sent.headers[name] = value;
      return res;
    },
    json(body: unknown) {
      sent.json = body;
      return res;
    },
  };
  return { res: res as unknown as Response, sent };
}

describe('EnvelopeExpressAdapter.reply', () => {
  const adapter = new EnvelopeExpressAdapter();

  it('wraps a plain result in a 200 envelope, whatever status Nest proposes (201 for POST)', () => {
    const { res, sent } = fakeResponse();
    adapter.reply(res, [{ id: 1 }], 201);
    expect(sent).toEqual({
      status: 200,
      headers: {},
      json: { code: 200, status: 'OK', message: '', details: {}, response: [{ id: 1 }] },
    });
  });

  it('answers true for a handler that returns nothing', () => {
    const { res, sent } = fakeResponse();
    adapter.reply(res, undefined);
    expect(sent.json).toMatchObject({ code: 200, response: true });
  });

  it('gives an ApiResult its own code, headers and details', () => {
    const { res, sent } = fakeResponse();
    adapter.reply(res, created('https://billing.example/api/v3/customer/7', 7));
    expect(sent).toEqual({
      status: 201,
      headers: { Location: 'https://billing.example/api/v3/customer/7' },
      json: { code: 201, status: 'OK', message: '', details: {}, response: { id: 7 } },
    });
  });
});
