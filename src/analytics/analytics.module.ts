import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsService } from './analytics.service';
import { DashboardController } from './dashboard/dashboard.controller';
import { DashboardSecurityMiddleware } from './dashboard/dashboard-security.middleware';
import { MrrChange } from './entities/mrr-change.entity';
import { MrrMonthRollup } from './entities/mrr-month.entity';
import { OpenInvoice } from './entities/open-invoice.entity';
import { RevenueMonthRollup } from './entities/revenue-month.entity';
import { UsageMonthRollup } from './entities/usage-month.entity';
import { MrrHistory } from './mrr-history';
import { MrrRecording } from './mrr-recording';

/**
 * Revenue analytics (DESIGN §6 "Analytics"): the MRR history kept as subscriptions change,
 * the reports under `/api/v3/_analytics/` and the `/dashboard` page. It reads the other
 * modules' tables through their entities and registers into core (events, due work) only.
 */
@Module({
  imports: [TypeOrmModule.forFeature([MrrChange, MrrMonthRollup, OpenInvoice, RevenueMonthRollup, UsageMonthRollup])],
  controllers: [AnalyticsController, DashboardController],
  providers: [AnalyticsService, MrrHistory, MrrRecording],
})
export class AnalyticsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(DashboardSecurityMiddleware).forRoutes(DashboardController);
  }
}
