import { Controller, Get, Param, Query, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import { sendCsv } from '../analytics.controller';
import { AnalyticsService } from '../analytics.service';
import { dashboardPage } from './dashboard-page';
import { DashboardErrorFilter } from './dashboard-error.filter';

/**
 * `GET /dashboard`: the reports of one currency as a page (DESIGN §6 "Analytics"), behind
 * the API credential like every route (HTTP Basic: the 401 challenges, so a browser asks
 * for it once). Takes the
 * reports' `currency`, `from` and `to`; without a currency, the first that has MRR.
 */
@UseFilters(DashboardErrorFilter)
@Controller('dashboard')
export class DashboardController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get()
  async page(@Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    res
      .status(200)
      .type('html')
      .send(await this.render(query));
  }

  /** A section's CSV, as `/api/v3/_analytics/<report>?format=csv` answers it, behind the page's challenge. */
  @Get('csv/:report')
  async csv(
    @Param('report') name: string,
    @Query() query: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    sendCsv(res, name, await this.analytics.report(name, query));
  }

  private async render(query: Record<string, unknown>): Promise<string> {
    const currencies = await this.analytics.currencies();
    let code = typeof query.currency === 'string' && query.currency ? query.currency : undefined;
    if (!code) {
      const sets = (await this.analytics.report('mrr', { from: query.from, to: query.to })).sets;
      code = sets.find((s) => s.rows.some((r) => r.mrr !== 0 || r.start_mrr !== 0))?.currency ?? 'USD';
    }
    const asked = { from: query.from, to: query.to, currency: code };
    const period = await this.analytics.period(asked);
    const rows = async (name: string, extra: Record<string, unknown> = {}) =>
      (await this.analytics.report(name, { ...asked, ...extra })).sets[0]?.rows ?? [];
    const asOf = this.analytics.today();
    return dashboardPage({
      currency: period.currency!.currency_iso4217,
      symbol: period.currency!.currency_symbol,
      currencies: currencies.map((c) => c.currency_iso4217),
      from: period.from,
      to: period.to,
      asOf,
      mrr: await rows('mrr'),
      churn: await rows('churn'),
      revenue: await rows('revenue'),
      receivables: await rows('receivables', { as_of: asOf }),
      dunning: await rows('dunning'),
    });
  }
}
