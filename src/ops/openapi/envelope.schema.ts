import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
