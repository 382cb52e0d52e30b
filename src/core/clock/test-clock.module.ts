import { Module } from '@nestjs/common';
import { TestClock } from './test-clock';
import { TestClockController } from './test-clock.controller';

/** The test clock and its `/_clock` endpoint (which answers 404 unless TEST_CLOCK=true). */
@Module({
  controllers: [TestClockController],
  providers: [TestClock],
  exports: [TestClock],
})
export class TestClockModule {}
