import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';

export type Schema = Record<string, unknown>;

/** The OpenAPI schema of the success envelope with a `response` of the given shape (SPEC "Envelope"). */
export function envelopeSchema(response: Schema, example?: unknown, code = 200): Schema {
  return {
    type: 'object',
    required: ['code', 'status', 'message', 'response'],
    properties: {
      code: { type: 'integer', example: code },
      status: { type: 'string', enum: ['OK'] },
      message: { type: 'string', example: '' },
      details: { type: 'object', additionalProperties: true },
      response,
    },
    ...(example === undefined ? {} : { example: { code, status: 'OK', message: '', response: example } }),
  };
}

/** The envelope of a read whose `response` is one object of this response class, or a list of them. */
export function envelopeOf(responseClass: new () => object, list: boolean): Schema {
  const one = { $ref: getSchemaPath(responseClass) };
  return envelopeSchema(list ? { type: 'array', items: one } : one);
}

/** A read route answers this response class (`list`: a list of them) in the envelope; for the OpenAPI document. */
export function AnswersWith(responseClass: new () => object, list = false): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(responseClass),
    ApiOkResponse({ description: 'the envelope', schema: envelopeOf(responseClass, list) }),
  );
}
