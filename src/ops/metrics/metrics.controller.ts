import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from 'src/core/auth/public.decorator';
import { MetricsRegistry } from 'src/core/metrics/metrics-registry';
import { MetricsAuthGuard } from './metrics-auth.guard';

/** Prometheus text exposition; not enveloped (scrapers read the text format only). */
@Public()
@UseGuards(MetricsAuthGuard)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsRegistry) {}

  @Get()
  async scrape(@Res() res: Response): Promise<void> {
    const text = await this.metrics.registry.metrics();
    res.status(200).type(this.metrics.registry.contentType).send(text);
  }
}
