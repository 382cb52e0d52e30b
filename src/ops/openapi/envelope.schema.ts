import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { envelopeSchema as envelope, Schema } from 'src/core/envelope/envelope-schema';

/** The success envelope every /api/v3 answer is wrapped in (SPEC "Envelope"). */
export class EnvelopeSchema {
  @ApiProperty({ example: 201, description: 'the HTTP status, repeated' }) code: number;
  @ApiProperty({ enum: ['OK'], example: 'OK' }) status: string;
  @ApiProperty({ example: '' }) message: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: {} }) details: Record<string, unknown>;
  @ApiProperty({
    description: 'the object, a list of objects, a count, `{id}` after a create or update, or `true`',
    example: { id: 97 },
  })
  response: unknown;
}

/** The error envelope (SPEC "Envelope"): `response` is false, or null on a 404. */
export class ErrorEnvelopeSchema {
  @ApiProperty({ example: 400 }) code: number;
  @ApiProperty({ enum: ['Error', 'Teapot'], example: 'Error' }) status: string;
  @ApiProperty({ example: 'A required parameter was missing: No data.' }) message: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: {} }) details: Record<string, unknown>;
  @ApiProperty({ type: 'boolean', nullable: true, example: false }) response: boolean | null;
}

/** The typed success envelopes, by what a route answers (SPEC "Conventions"; examples as recorded). */
export const ENVELOPES: Record<string, Schema> = {
  IdEnvelope: envelope(
    { type: 'object', required: ['id'], properties: { id: { type: 'integer', example: 97 } } },
    { id: 97 },
    201,
  ),
  CountEnvelope: envelope({ type: 'integer', example: 4 }, 4),
  ListEnvelope: envelope({ type: 'array', items: { type: 'object', additionalProperties: true } }, []),
  ObjectEnvelope: envelope({ type: 'object', additionalProperties: true }, {}),
  TrueEnvelope: envelope({ type: 'boolean', enum: [true] }, true),
  ActionEnvelope: envelope(
    {
      description: '`true`, or what the action makes: an id, a URL, the objects it created',
      oneOf: [
        { type: 'boolean' },
        { type: 'string' },
        { type: 'integer' },
        { type: 'object', additionalProperties: true },
      ],
    },
    true,
  ),
};

export function envelopeRef(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}
