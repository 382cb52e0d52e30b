import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { SharedTestClock } from './shared-test-clock';

/** With TEST_CLOCK=true each request starts at the shared test clock's moment (SharedTestClock). */
@Injectable()
export class TestClockMiddleware implements NestMiddleware {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly shared: SharedTestClock,
  ) {}

  use(_req: Request, _res: Response, next: NextFunction): void {
    if (!this.config.testClock) return next();
    this.shared.refresh().then(() => next(), next);
  }
}
