import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from 'src/core/envelope/api-error';
import { okEnvelope } from 'src/core/envelope/envelope';
import { AnalyticsService, Report } from './analytics.service';
import { toCsv } from './csv';

/** Whether the answer is CSV: `?format=csv` or, without `format`, `Accept: text/csv`. */
export function wantsCsv(query: Record<string, unknown>, req: Request): boolean {
  const format = query.format;
  if (format === undefined || format === '') return /\btext\/csv\b/i.test(req.headers.accept ?? '');
  if (format === 'csv') return true;
  if (format === 'json') return false;
  throw ApiError.badRequest('Field "format" must be "json" or "csv".');
}

/** The report as CSV: a header row, then one line per row of every currency's set. */
export function reportCsv(report: Report): string {
  return toCsv(
    report.columns,
    report.sets.flatMap((set) => set.rows.map((row) => Object.assign({ currency: set.currency }, row))),
  );
}

/** Sends the report as a CSV download. */
export function sendCsv(res: Response, name: string, report: Report): void {
  res
    .status(200)
    .type('text/csv; charset=utf-8')
    .setHeader('Content-Disposition', `attachment; filename="${name}.csv"`);
  res.send(reportCsv(report));
}

/**
 * `GET /api/v3/_analytics/{mrr,churn,revenue,receivables,dunning,usage}` (DESIGN §6
 * "Analytics"): the envelope with one row set per currency, or the same figures as CSV.
 */
@Controller('api/v3/_analytics')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get(':report')
  async report(
    @Param('report') name: string,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const csv = wantsCsv(query, req);
    const report = await this.analytics.report(name, query);
    if (csv) sendCsv(res, name, report);
    else res.status(200).json(okEnvelope(200, report.sets));
  }
}
