import { Controller, Get, Req } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { moneyToJson } from 'src/core/money/decimal';
import { Tax } from './entities/reference.entities';
import { ReferenceService } from './reference.service';

const PATHS = new Map(ReferenceService.paths.map((p) => [p.path, p.field]));

/** `GET /currency`, `/terms`, `/country`, `/brand`, `/class`, `/admin`, `/language`, `/user_type`, `/tax`. */
@Controller('api/v3')
export class ReferenceController {
  constructor(
    private readonly reference: ReferenceService,
    private readonly dataSource: DataSource,
  ) {}

  @Get('tax')
  async taxes(): Promise<Record<string, unknown>[]> {
    const rows = await this.dataSource.getRepository(Tax).find({ order: { tax_id: 'ASC' } });
    return rows.map((t) => ({ tax_id: t.tax_id, tax_name: t.tax_name, tax_rate: moneyToJson(t.tax_rate) }));
  }

  @Get([...PATHS.keys()])
  list(@Req() req: Request): unknown[] {
    const field = PATHS.get(req.path.split('/').filter(Boolean).pop() ?? '');
    if (!field) throw ApiError.badRequest('Invalid endpoint.');
    return this.reference.list(field);
  }
}
