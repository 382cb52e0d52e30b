import { Controller, Get, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from 'src/core/envelope/api-error';
import { ReferenceService } from './reference.service';

const PATHS = new Map(ReferenceService.paths.map((p) => [p.path, p.field]));

/** `GET /currency`, `/terms`, `/country`, `/brand`, `/class`, `/admin`, `/language`, `/user_type` (`/tax`: src/taxes). */
@Controller('api/v3')
export class ReferenceController {
  constructor(private readonly reference: ReferenceService) {}

  @Get([...PATHS.keys()])
  list(@Req() req: Request): unknown[] {
    const field = PATHS.get(req.path.split('/').filter(Boolean).pop() ?? '');
    if (!field) throw ApiError.badRequest('Invalid endpoint.');
    return this.reference.list(field);
  }
}
