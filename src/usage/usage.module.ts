import { Module } from '@nestjs/common';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';
import { UsageTargetResolver } from './usage-target-resolver';

/** Usage records pushed for metered subscription lines; the billing run reads them in arrears. */
@Module({
  controllers: [UsageController],
  providers: [UsageService, UsageTargetResolver],
  exports: [UsageService],
})
export class UsageModule {}
