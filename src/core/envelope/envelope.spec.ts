import { ApiError } from './api-error';
import { errorEnvelope, okEnvelope } from './envelope';

describe('envelopes', () => {
  it('okEnvelope carries the response with empty message and details', () => {
    expect(okEnvelope(200, { id: 5 })).toEqual({
      code: 200,
      status: 'OK',
      message: '',
      details: {},
      response: { id: 5 },
    });
    expect(okEnvelope(201, { id: 1 }, { transaction_id: 9 }).details).toEqual({ transaction_id: 9 });
  });

  it('errorEnvelope has response false and an object for details', () => {
    expect(errorEnvelope(400, 'Bad.')).toEqual({
      code: 400,
      status: 'Error',
      message: 'Bad.',
      details: {},
      response: false,
    });
    expect(errorEnvelope(400, 'Bad.', undefined).details).toEqual({});
    expect(errorEnvelope(418, 'Short and stout.').status).toBe('Teapot');
    expect(errorEnvelope(401, 'No.').response).toBe(false);
    // A 404 as recorded from the original service: `"response":null`.
    expect(errorEnvelope(404, 'This customer does not exist.').response).toBeNull();
  });
});

describe('ApiError', () => {
  it('builds the common errors with the wire wording', () => {
    const bad = ApiError.badRequest('Nope.', { field: 'x' });
    expect(bad).toBeInstanceOf(Error);
    expect(bad.name).toBe('ApiError');
    expect([bad.code, bad.message, bad.details]).toEqual([400, 'Nope.', { field: 'x' }]);
    expect([ApiError.notFound('invoice').code, ApiError.notFound('invoice').message]).toEqual([
      404,
      'This invoice does not exist.',
    ]);
    expect(ApiError.unauthorized().code).toBe(401);
    expect(ApiError.unauthorized('Custom.').message).toBe('Custom.');
  });
});
