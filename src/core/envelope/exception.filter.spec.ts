import {
  ArgumentsHost,
  BadRequestException,
  ForbiddenException,
  HttpException,
  Logger,
  NotFoundException,
  PayloadTooLargeException,
  UnauthorizedException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { ApiError } from './api-error';
import { Envelope } from './envelope';
import { EnvelopeExceptionFilter } from './exception.filter';
import { Recorded, recordedResponse } from './recorded-response.spec-helper';

function fakeHost(headersSent = false): { host: ArgumentsHost; recorded: Recorded<Envelope> } {
  const { res, recorded } = recordedResponse<Envelope>({ headersSent });
  return { host: { switchToHttp: () => ({ getResponse: () => res }) } as unknown as ArgumentsHost, recorded };
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe('EnvelopeExceptionFilter', () => {
  let logError: jest.SpyInstance;

  beforeEach(() => {
    logError = jest.spyOn(Logger.prototype, 'error').mockImplementation();
  });

  afterEach(() => jest.restoreAllMocks());

  function run(exception: unknown): Recorded<Envelope> {
    const { host, recorded } = fakeHost();
    new EnvelopeExceptionFilter().catch(exception, host);
    return recorded;
  }

  it('answers an ApiError 400 with its own message and details', () => {
    const out = run(ApiError.badRequest('Field "email" is invalid.', { field: 'email' }));
    expect(out.status).toBe(400);
    expect(out.body).toEqual({
      code: 400,
      status: 'Error',
      message: 'Field "email" is invalid.',
      details: { field: 'email' },
      response: false,
    });
  });

  it('answers an ApiError 404 as the original service does (recorded traffic): its wording, empty details, response null', () => {
    const out = run(ApiError.notFound('customer'));
    expect(out.status).toBe(404);
    expect(out.body).toEqual({
      code: 404,
      status: 'Error',
      message: 'This customer does not exist.',
      details: {},
      response: null,
    });
  });

  it('says Teapot for 418', () => {
    const out = run(new ApiError(418, "I'm a teapot."));
    expect(out.status).toBe(418);
    expect(out.body?.status).toBe('Teapot');
  });

  it('hides an unexpected error behind an error id and logs it', () => {
    const error = new Error('SELECT * FROM secret_table WHERE password = 1');
    const out = run(error);
    expect(out.status).toBe(500);
    expect(out.body?.status).toBe('Error');
    expect(out.body?.response).toBe(false);
    expect(out.body?.details).toEqual({});
    const message = out.body?.message ?? '';
    expect(message).toMatch(new RegExp(`^An internal error occurred \\(error id ${UUID}\\)\\.$`));
    expect(message).not.toContain('SELECT');
    expect(message).not.toContain('secret_table');
    expect(message).not.toContain('\n'); // no stack lines

    const errorId = new RegExp(UUID).exec(message)?.[0] ?? 'missing';
    expect(logError).toHaveBeenCalledTimes(1);
    const logged = String(logError.mock.calls[0][0]);
    expect(logged).toContain(`[${errorId}]`);
    expect(logged).toContain('secret_table');
  });

  it('uses a fresh error id each time', () => {
    const first = run(new Error('a')).body?.message;
    const second = run(new Error('a')).body?.message;
    expect(first).not.toBe(second);
  });

  it('treats a thrown non-Error as a 500 too', () => {
    const out = run('boom');
    expect(out.status).toBe(500);
    expect(out.body?.message).toMatch(/^An internal error occurred \(error id /);
    expect(out.body?.message).not.toContain('boom');
  });

  it('answers an unknown route (NotFoundException) with 400 Invalid endpoint', () => {
    const out = run(new NotFoundException('Cannot GET /api/v3/nothing'));
    expect(out.status).toBe(400);
    expect(out.body?.message).toBe('Invalid endpoint: no such resource or method.');
    expect(out.body?.response).toBe(false);
  });

  it.each([new UnauthorizedException(), new ForbiddenException()])('answers %p with the 401 envelope', (exception) => {
    const out = run(exception);
    expect(out.status).toBe(401);
    expect(out.body).toEqual({
      code: 401,
      status: 'Error',
      message: 'Authentication failed: the API username or password is missing or incorrect.',
      details: {},
      response: false,
    });
  });

  it('answers the throttler with 429', () => {
    const out = run(new ThrottlerException());
    expect(out.status).toBe(429);
    expect(out.body?.code).toBe(429);
    expect(out.body?.message).toContain('Rate limit exceeded');
  });

  it('recognises a JSON parse error', () => {
    const out = run(new BadRequestException('Unexpected token } in JSON at position 12'));
    expect(out.status).toBe(400);
    expect(out.body?.message).toBe('Invalid JSON in the request body.');
  });

  it('does not echo other framework 400 text', () => {
    const out = run(new BadRequestException('internal detail'));
    expect(out.status).toBe(400);
    expect(out.body?.message).toBe('Invalid request.');
  });

  it('maps a too large body and a wrong media type to 400', () => {
    expect(run(new PayloadTooLargeException()).body?.message).toBe('Invalid request: the request body is too large.');
    expect(run(new UnsupportedMediaTypeException()).body?.message).toBe('Invalid request: the body must be JSON.');
  });

  it('maps any other framework status to 500 without echoing it', () => {
    const out = run(new HttpException('upstream said no', 502));
    expect(out.status).toBe(500);
    expect(out.body?.message).toBe('An internal error occurred.');
  });

  it('writes nothing once headers are sent', () => {
    const { host, recorded } = fakeHost(true);
    new EnvelopeExceptionFilter().catch(ApiError.badRequest('late'), host);
    expect(recorded).toEqual({ headers: {} });
  });
});
