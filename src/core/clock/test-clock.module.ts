import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SharedTestClock } from './shared-test-clock';
import { TestClock } from './test-clock';
import { TestClockController } from './test-clock.controller';
import { TestClockMiddleware } from './test-clock.middleware';
import { TestClockRow } from './test-clock-row.entity';

/**
 * The test clock, its `/_clock` endpoint (which answers 404 unless TEST_CLOCK=true), and
 * its moment shared through the database by every process (read at each request's start).
 */
@Module({
  imports: [TypeOrmModule.forFeature([TestClockRow])],
  controllers: [TestClockController],
  providers: [TestClock, SharedTestClock, TestClockMiddleware],
  exports: [TestClock, SharedTestClock],
})
export class TestClockModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(TestClockMiddleware).forRoutes('*path');
  }
}
