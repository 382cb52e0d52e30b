import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { BulkDispatcher } from './bulk-dispatcher';
import { parseBulkRequest } from './bulk-request';

/** `POST /api/v3/_bulk`: up to 25 calls in one request, chained by JSONPath references. */
@Controller('api/v3/_bulk')
export class BulkController {
  constructor(private readonly dispatcher: BulkDispatcher) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Run up to 25 calls in one request, chained by JSONPath references' })
  @ApiBody({
    schema: {
      type: 'array',
      maxItems: 25,
      items: {
        type: 'object',
        required: ['request_method', 'uri'],
        properties: {
          request_method: { type: 'string', enum: ['GET', 'POST', 'PUT'] },
          uri: { type: 'string', example: '/api/v3/customer' },
          payload: { type: 'object', nullable: true, additionalProperties: true },
          id: { type: 'string', nullable: true, description: 'a name later entries refer to (`<id>:$.response.id`)' },
        },
      },
    },
  })
  async run(@Body() body: unknown, @Req() req: Request): Promise<{ _bulk: unknown[] }> {
    const entries = parseBulkRequest(body);
    return { _bulk: await this.dispatcher.run(entries, req) };
  }
}
