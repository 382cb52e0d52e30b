import { Body, Controller, Get, Inject, Post } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { ApiError } from 'src/core/envelope/api-error';
import { ApiResult } from 'src/core/envelope/api-result';
import { accountDate } from 'src/core/time/account-date';
import { parseInputDatetime } from 'src/core/time/datetime-input';
import { validateBody } from 'src/core/validation/validate-body';
import { WireFormat } from 'src/core/wire/wire-format';
import { runOutsideScopes } from 'src/database/call-scope';
import { MoveClockDto } from './move-clock.dto';
import { TestClock } from './test-clock';
import { AnswersWith } from 'src/core/envelope/envelope-schema';
import { WireClock } from './wire-clock';

/**
 * `/_clock` (DESIGN §6 "Test clock"). Without TEST_CLOCK=true both answer 404 with the
 * unknown endpoint's message (an unknown path is a 400 on this API, DESIGN asks for 404).
 * Both answer `{datetime, date, timezone}`: the server's now in the wire's datetime
 * format, its account date, and the account zone.
 */
@Controller('api/v3/_clock')
export class TestClockController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly testClock: TestClock,
    private readonly wire: WireFormat,
  ) {}

  @Get()
  @AnswersWith(WireClock)
  read(): WireClock {
    this.mustBeOn();
    return this.present(this.testClock.now());
  }

  @Post()
  async move(@Body() body: unknown): Promise<ApiResult> {
    this.mustBeOn();
    // Not @Body(DtoPipe): without TEST_CLOCK the endpoint is a 404 whatever the body.
    const dto = validateBody(MoveClockDto, body);
    if (dto.datetime === undefined) throw ApiError.badRequest('Field "datetime" is required.');
    const target = parseInputDatetime(dto.datetime, this.wire.timezone);
    if (!target) throw ApiError.badRequest('Field "datetime" is not a valid datetime.');
    // The move runs the due work of every moment it passes: not this request's own work, so
    // not bound by its deadline (REQUEST_TIMEOUT_MS), which would cut a long move midway.
    const now = await new Promise<Date>((resolve, reject) =>
      runOutsideScopes(() => void this.testClock.advanceTo(target).then(resolve, reject)),
    );
    return new ApiResult(200, this.present(now));
  }

  private mustBeOn(): void {
    if (!this.config.testClock) throw new ApiError(404, 'Invalid endpoint: no such resource or method.');
  }

  private present(now: Date): WireClock {
    return {
      datetime: this.wire.datetime(now),
      date: accountDate(now, this.wire.timezone),
      timezone: this.wire.timezone,
    };
  }
}
