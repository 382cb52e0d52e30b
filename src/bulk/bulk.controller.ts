import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { BulkDispatcher } from './bulk-dispatcher';
import { parseBulkRequest } from './bulk-request';

/** `POST /api/v3/_bulk`: up to 25 calls in one request, chained by JSONPath references. */
@Controller('api/v3/_bulk')
export class BulkController {
  constructor(private readonly dispatcher: BulkDispatcher) {}

  @Post()
  @HttpCode(200)
  async run(@Body() body: unknown, @Req() req: Request): Promise<{ _bulk: unknown[] }> {
    const entries = parseBulkRequest(body);
    return { _bulk: await this.dispatcher.run(entries, req) };
  }
}
