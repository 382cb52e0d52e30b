import { CallHandler, ExecutionContext } from '@nestjs/common';
import { lastValueFrom, of } from 'rxjs';
import { ApiResult, created } from './api-result';
import { EnvelopeInterceptor } from './envelope.interceptor';

/** Runs the interceptor over a handler result; what it returns and what it set on the response. */
async function intercept(result: unknown) {
  const res = { statusCode: 201, headers: {} as Record<string, string> };
  const response = {
    status(code: number) {
      res.statusCode = code;
      return response;
    },
    setHeader(name: string, value: string) {
      res.headers[name] = value;
    },
  };
  const context = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ExecutionContext;
  const next: CallHandler = { handle: () => of(result) };
  const body = await lastValueFrom(new EnvelopeInterceptor().intercept(context, next));
  return { body, res };
}

describe('EnvelopeInterceptor', () => {
  it('wraps a plain result in a 200 envelope, whatever status Nest proposed (201 for POST)', async () => {
    const { body, res } = await intercept([{ id: 1 }]);
    expect(JSON.stringify(body)).toBe('{"code":200,"status":"OK","message":"","details":{},"response":[{"id":1}]}');
    expect(res.statusCode).toBe(200);
  });

  it('answers true for a handler that returns nothing', async () => {
    const { body } = await intercept(undefined);
    expect(body).toMatchObject({ code: 200, response: true });
  });

  it('gives an ApiResult its own code, headers and details', async () => {
    const { body, res } = await intercept(created('https://billing.example/api/v3/customer/7', 7));
    expect(res).toEqual({ statusCode: 201, headers: { Location: 'https://billing.example/api/v3/customer/7' } });
    expect(body).toEqual({ code: 201, status: 'OK', message: '', details: {}, response: { id: 7 } });

    const paid = await intercept(new ApiResult(200, { id: 3 }, {}, { authorization: 'ok' }));
    expect(paid.body).toEqual({
      code: 200,
      status: 'OK',
      message: '',
      details: { authorization: 'ok' },
      response: { id: 3 },
    });
  });
});
