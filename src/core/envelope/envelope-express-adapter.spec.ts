import { created } from './api-result';
import { EnvelopeExpressAdapter } from './envelope-express-adapter';
import { recordedResponse } from './recorded-response.spec-helper';

const JSON_TYPE = 'application/json; charset=utf-8';

describe('EnvelopeExpressAdapter.reply', () => {
  const adapter = new EnvelopeExpressAdapter();

  it('wraps a plain result in a 200 envelope, whatever status Nest proposes (201 for POST)', () => {
    const { res, recorded: sent } = recordedResponse();
    adapter.reply(res, [{ id: 1 }], 201);
    const text = '{"code":200,"status":"OK","message":"","details":{},"response":[{"id":1}]}';
    expect(sent).toEqual({
      status: 200,
      headers: { 'Content-Type': JSON_TYPE, 'Content-Length': text.length },
      body: JSON.parse(text),
    });
  });

  it('answers true for a handler that returns nothing', () => {
    const { res, recorded: sent } = recordedResponse();
    adapter.reply(res, undefined);
    expect(sent.body).toMatchObject({ code: 200, response: true });
  });

  it('gives an ApiResult its own code, headers and details', () => {
    const { res, recorded: sent } = recordedResponse();
    adapter.reply(res, created('https://billing.example/api/v3/customer/7', 7));
    expect(sent).toMatchObject({
      status: 201,
      headers: { Location: 'https://billing.example/api/v3/customer/7', 'Content-Type': JSON_TYPE },
      body: { code: 201, status: 'OK', message: '', details: {}, response: { id: 7 } },
    });
  });

  it('counts Content-Length in bytes, and sends the headers without a body to HEAD', () => {
    const { res, recorded: sent } = recordedResponse({ method: 'HEAD' });
    adapter.reply(res, { company: 'Müller' });
    expect(sent.headers['Content-Length']).toBe(
      Buffer.byteLength('{"code":200,"status":"OK","message":"","details":{},"response":{"company":"Müller"}}'),
    );
    expect(sent.bodyless).toBe(true);
    expect(sent.body).toBeUndefined();
  });
});
